
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.support import expected_conditions as EC
import time

def type_name(driver):
    field = WebDriverWait(driver, 5).until(EC.presence_of_element_located((By.ID, 'name')))
    field.send_keys('Ada')
    time.sleep(1)

def copy_code(driver):
    code = driver.find_element(By.ID, 'code')
    ActionChains(driver).double_click(code).perform()
    text = code.text
    driver.find_element(By.NAME, 'echo').send_keys(text + Keys.TAB)
    time.sleep(1)

def choose_team(driver):
    for plan in driver.find_elements(By.CLASS_NAME, 'plan'):
        if plan.text == 'Team':
            plan.click()
            break
    time.sleep(1)

def choose_second(driver):
    driver.find_elements(By.CSS_SELECTOR, 'span.plan')[1].click()
    time.sleep(0.5)

def send_form(driver):
    name = driver.find_element(By.XPATH, "//input[@id='name']")
    name.submit()
    time.sleep(1)

actions = [type_name, copy_code, choose_team, choose_second, send_form]

def interact(driver, dir):
    driver.save_screenshot(f'{dir}/_images/origin.png')
    type_name(driver)
    copy_code(driver)
    driver.save_screenshot(f'{dir}/_images/after_copy.png')
