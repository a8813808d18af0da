
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
import time

def drag_chip(driver):
    chip = driver.find_element(By.ID, 'chip')
    target = driver.find_elements(By.CLASS_NAME, 'box')[-1]
    chain = ActionChains(driver)
    chain.drag_and_drop(chip, target).perform()
    time.sleep(1)

def press_keys(driver):
    chain = ActionChains(driver)
    chain.send_keys('q').perform()
    ActionChains(driver).key_down(Keys.SHIFT).send_keys('w').key_up(Keys.SHIFT).perform()
    time.sleep(1)

def scroll_down(driver):
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight);")
    time.sleep(2)

actions = [drag_chip, press_keys, scroll_down]
