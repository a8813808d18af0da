
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
import time

def press_add(driver):
    button = driver.find_element(By.CLASS_NAME, 'add')
    button.click()
    time.sleep(1)  # the count changes half a second after the click

def press_add_twice(driver):
    press_add(driver)
    press_add(driver)

def hover_card(driver):
    card = driver.find_element(By.CSS_SELECTOR, '.card')
    chain = ActionChains(driver)
    chain.move_to_element(card).perform()
    time.sleep(1)

actions = [press_add_twice, hover_card]

def interact(driver, dir):
    driver.save_screenshot(f'{dir}/_images/origin.png')
    press_add_twice(driver)
    driver.save_screenshot(f'{dir}/_images/after_add.png')
    hover_card(driver)
    driver.save_screenshot(f'{dir}/_images/after_hover.png')
