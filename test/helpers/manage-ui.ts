// The back end's pages as a new owner meets them, in Chromium.
import type { Page } from 'playwright-core';

/** Opens the back end and fills its sign-up form; the caller sends it. */
export async function fillSignUp(page: Page, baseUrl: string, company: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/manage/`);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Company').fill(company);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('a long enough password');
}

/** Signs in to the back end and waits for the first screen. */
export async function signIn(page: Page, baseUrl: string, user: { username: string; password: string }): Promise<void> {
  await page.goto(`${baseUrl}/manage/`);
  await page.getByLabel('E-mail').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('.tiles').waitFor();
}
