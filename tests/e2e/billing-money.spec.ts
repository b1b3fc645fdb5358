import { test, expect } from '@playwright/test';
import { signIn } from './helpers';
import { maskAccount, maskName } from '../../src/shared/mask';
import { QUERY_RANGES, rangeStart } from '../../src/shared/services';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ab8d0f1a0000000049454e44ae426082', 'hex');
const yuan = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''));

test('recharge through the sandbox Alipay page and see the balance grow', async ({ page, context }) => {
  // demokey: an account the other browser tests leave alone, so its balance moves only here
  await signIn(page, 'demokey');
  await page.goto('/billing/charge/?amount=123.45&referer=/billing/history/');
  const balance = page.getByTestId('charge-balance');
  await expect(balance).toContainText('元');
  const before = yuan(await balance.textContent());
  await expect(page.getByLabel('充值金额')).toHaveValue('123.45');
  // a recharge cannot be paid from the balance: the chooser falls back to Alipay
  await expect(page.getByRole('radio', { name: '支付宝' })).toBeChecked();
  await expect(page.getByRole('radio', { name: /余额支付/ })).toHaveCount(0);
  await page.getByRole('button', { name: '确认充值' }).click();
  const qr = page.getByRole('img', { name: '支付二维码' });
  await expect(qr).toBeVisible();
  await expect(qr).toHaveAttribute('width', '256');
  const payUrl = await page.locator('.charge-pay-link').getAttribute('href');
  expect(await qr.getAttribute('data-value')).toBe(payUrl);

  // the person who scanned the code confirms on the provider's page
  const phone = await context.newPage();
  await phone.goto(payUrl!);
  await expect(phone.getByText('支付宝沙箱').first()).toBeVisible();
  await expect(phone.getByText('￥123.45')).toBeVisible();
  await phone.getByRole('button', { name: '确认付款' }).click();
  await expect(phone.getByText('付款成功')).toBeVisible();
  await phone.close();

  await expect(page.getByText('充值成功')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('已充值 123.45 元')).toBeVisible();
  await expect.poll(async () => yuan(await balance.textContent())).toBeCloseTo(before + 123.45, 2);
  // back to where the user came from: the order history lists it
  await page.getByRole('link', { name: '返回' }).click();
  await expect(page).toHaveURL(/\/billing\/history\/$/);
  await expect(page.locator('table tbody tr', { hasText: '123.45' }).first()).toContainText('账户充值');
});

test('apply for a rebate with a new payee, seeing the payee form\'s messages', async ({ page }) => {
  await signIn(page);
  await page.goto('/billing/rebateAmount/');
  await expect(page.locator('.rebate-table tbody tr').first()).toBeVisible();
  await page.getByRole('button', { name: '申请提现' }).click();
  await expect(page).toHaveURL(/\/billing\/rebateCreateApply\/\?sum=/);

  const sum = page.locator('#root_sum');
  await sum.fill('10');
  await expect(page.getByText('单笔申请，金额 20 元起提交')).toBeVisible();
  await sum.fill('99999');
  await expect(page.getByText(/^最大提现金额为 \d+\.\d{2}$/)).toBeVisible();
  await sum.fill('');
  await page.getByRole('button', { name: '提交申请' }).click();
  await expect(page.getByText('请填写提现金额')).toBeVisible();
  await sum.fill('20.5');

  await page.getByText('提现', { exact: true }).click();
  await page.getByRole('button', { name: '添加收款信息' }).click();
  const dialog = page.getByRole('dialog', { name: '添加收款信息' });
  await dialog.getByRole('button', { name: '确定' }).click();
  for (const text of ['请填写姓名', '请填写支付宝账号', '请填写身份证号', '请上传正面身份证照片', '请上传反面身份证照片']) {
    await expect(dialog.getByText(text, { exact: true })).toBeVisible();
  }
  await dialog.locator('#root_name').fill('张');
  await expect(dialog.getByText('姓名长度限制 2 ~ 20 位字符')).toBeVisible();
  await dialog.locator('#root_open_account').fill('12345');
  await expect(dialog.getByText('请填写正确格式的支付宝账号(邮箱地址或者手机号)')).toBeVisible();
  await dialog.locator('#root_id_code').fill('12345');
  await expect(dialog.getByText('请填写 18 位二代身份证')).toBeVisible();
  await dialog.getByText('银行卡', { exact: true }).click();
  await dialog.locator('#root_open_account').fill('0123456789012345');
  await expect(dialog.getByText('请填写正确格式的银行卡号')).toBeVisible();
  await dialog.locator('#root_id_front_pic').setInputFiles({ name: 'id.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
  await expect(dialog.getByText('仅支持 .jpg .jpeg .bmp .gif .png 格式')).toBeVisible();
  // a picture by name that is not one by content: the server says so
  await dialog.locator('#root_id_front_pic').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
  await expect(dialog.getByText('仅支持 .jpg .jpeg .bmp .gif .png 格式')).toBeVisible();

  const name = `王测${Date.now() % 100000}`;
  await dialog.locator('#root_name').fill(name);
  await dialog.locator('#root_open_account').fill('6222020200112233445');
  await dialog.locator('#root_id_code').fill('11010519900101123X');
  await dialog.locator('#root_id_front_pic').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: PNG });
  await expect(dialog.locator('img[alt="身份证正面照片"]')).toBeVisible();
  await dialog.locator('#root_id_reverse_pic').setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: PNG });
  await expect(dialog.locator('img[alt="身份证反面照片"]')).toBeVisible();
  for (const text of ['姓名长度限制 2 ~ 20 位字符', '请填写正确格式的银行卡号', '请填写 18 位二代身份证', '仅支持 .jpg .jpeg .bmp .gif .png 格式', '请上传正面身份证照片', '请上传反面身份证照片']) {
    await expect(dialog.getByText(text, { exact: true })).toHaveCount(0);
  }
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog).toBeHidden();
  const payee = page.getByRole('radio', { name: new RegExp(`银行卡 · ${name}`) });
  await expect(payee).toBeChecked();

  await page.getByRole('button', { name: '提交申请' }).click();
  await expect(page).toHaveURL(/\/billing\/rebateAmount\/$/);
  const row = page.locator('.rebate-table tbody tr', { hasText: '20.50' }).filter({ hasText: '待审核' }).first();
  await expect(row).toContainText('提现');
  await row.getByRole('button', { name: '查看' }).click();
  await expect(page).toHaveURL(/\/billing\/rebateApplyMessage\/$/);
  await expect(page.getByText('待审核', { exact: true })).toBeVisible();
  await expect(page.getByText('处理时间')).toHaveCount(0);
  await expect(page.getByRole('cell', { name: maskName(name)!, exact: true })).toBeVisible();
  // the card shows its first 4 and last 4 digits (src/shared/mask.ts)
  await expect(page.getByRole('cell', { name: maskAccount('6222020200112233445')!, exact: true })).toBeVisible();
});

test('the rebate list of an account without rebates is empty and the manage button says it is not enough', async ({ page }) => {
  await signIn(page, 'demonew');
  await page.goto('/billing/rebateAmount/');
  await expect(page.getByText('还没有返利金额记录')).toBeVisible();
  await page.getByRole('button', { name: '申请提现' }).click();
  await expect(page.getByRole('dialog', { name: '返利金额不足' })).toContainText('累计返利金额满 20 元才可申请提现');
  // the create page opened with a sum below 20 goes back to the list
  await page.goto('/billing/rebateCreateApply/?sum=5&freeze=0&all=5');
  await expect(page).toHaveURL(/\/billing\/rebateAmount\/$/);
});

test('apply for an invoice with a new title and address, see it listed, open and delete it', async ({ page }) => {
  await signIn(page);
  await page.goto('/billing/invoicing/');
  await expect(page.getByTestId('invoice-available')).not.toHaveText('—');
  const title = `发票测试${Date.now() % 100000}有限公司`;
  await page.getByRole('tab', { name: '发票抬头' }).click();
  await page.getByRole('button', { name: '添加发票抬头' }).click();
  let dialog = page.getByRole('dialog', { name: '添加发票抬头' });
  await dialog.locator('#root_title').fill(title);
  await dialog.locator('#root_tax_no').fill('abc');
  await expect(dialog.getByText('请填写正确的纳税人识别号（15、18 或 20 位数字或大写字母）')).toBeVisible();
  await dialog.locator('#root_tax_no').fill('91310000MA1FL0XX1A');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(title)).toBeVisible();
  await page.getByRole('tab', { name: '收件地址' }).click();
  await page.getByRole('button', { name: '添加收件地址' }).click();
  dialog = page.getByRole('dialog', { name: '添加收件地址' });
  await dialog.locator('#root_recipient').fill('张三');
  await dialog.locator('#root_mobile').fill('1380013800');
  await expect(dialog.getByText('请填写正确的手机号')).toBeVisible();
  await dialog.locator('#root_mobile').fill('13800138000');
  await dialog.locator('#root_address').fill('上海市浦东新区示例路 1 号');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: '申请开票' }).click();
  await expect(page).toHaveURL(/\/billing\/createInvoicing\/\?cat=billing&total=/);
  await page.getByLabel('发票抬头').selectOption({ label: title });
  await page.getByLabel('开票金额').fill('1.23');
  await page.getByRole('button', { name: '提交申请' }).click();
  await expect(page).toHaveURL(/\/billing\/invoicing\/$/);
  const row = page.locator('table tbody tr', { hasText: title });
  await expect(row).toContainText('1.23');
  await expect(row).toContainText('待开具');
  await row.getByRole('link', { name: '查看' }).click();
  await expect(page).toHaveURL(/\/billing\/invoicingDetail\/\d+\/$/);
  await expect(page.getByText('91310000MA1FL0XX1A')).toBeVisible();
  await page.getByRole('link', { name: '返回发票管理' }).click();
  await page.locator('table tbody tr', { hasText: title }).getByRole('button', { name: '删除' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.locator('table tbody tr', { hasText: title })).toHaveCount(0);
});

test('the order history offers the quick ranges: 近 3 个月 starts the day after the same day three months ago', async ({ page }) => {
  await signIn(page);
  await page.goto('/billing/history/');
  await page.getByRole('button', { name: '近 3 个月' }).click();
  const today = new Date().toISOString().slice(0, 10);
  await expect(page.getByLabel('结束日期')).toHaveValue(today);
  await expect(page.getByLabel('开始日期')).toHaveValue(rangeStart(QUERY_RANGES[1], today));
  await expect(page.getByRole('button', { name: '近 3 个月' })).toHaveClass(/bp6-active/);
});
