import { test, expect, allowConsoleError, signIn } from './helpers';
import { maskAccount, maskName } from '../../src/shared/mask';
import { QUERY_RANGES, rangeStart } from '../../src/shared/services';
import { dayOf } from '../../src/shared/stats/time';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ab8d0f1a0000000049454e44ae426082', 'hex');

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

test('the rebate list shows a failed load, and a refused delete with its code\'s text (the generic text only without an answer)', async ({ page }) => {
  await signIn(page);
  await page.goto('/billing/rebateAmount/');
  const row = page.locator('.rebate-table tbody tr', { hasText: '30.00' }).filter({ hasText: '已取消' }).first();
  await expect(row).toBeVisible();
  const isRebate = (u: URL) => u.pathname === '/api/account/rebate';
  // the delete that gets no answer and the list answered 500 below are on purpose
  allowConsoleError(page, /net::ERR_FAILED \(http:\/\/[^/]+\/api\/account\/rebate\)$/);
  allowConsoleError(page, /status of 500 .*\/api\/account\/rebate\?/);
  // a refusal with an error code: that code's text
  await page.route(isRebate, (r) => (r.request().method() === 'DELETE' ? r.fulfill({ status: 400, json: { error_code: 22405, message: '已完成的返利申请不能删除' } }) : r.continue()));
  await row.getByRole('button', { name: '删除' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('已完成的返利申请不能删除')).toBeVisible();
  // no answer at all: the generic text of spec 001 §8
  await page.unroute(isRebate);
  await page.route(isRebate, (r) => (r.request().method() === 'DELETE' ? r.abort('failed') : r.continue()));
  await row.getByRole('button', { name: '删除' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('发生了未知错误，请您联系我们的客服')).toBeVisible();
  // a failed load is not an empty list
  await page.unroute(isRebate);
  await page.route(isRebate, (r) => (r.request().method() === 'GET' ? r.fulfill({ status: 500, body: 'down' }) : r.continue()));
  await page.reload();
  await expect(page.locator('.bp6-callout.bp6-intent-danger')).toContainText('网络似乎不稳定，刷新试试');
  await expect(page.getByText('还没有返利金额记录')).toHaveCount(0);
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
  // days are China Standard Time days whatever the browser's zone
  const today = dayOf(Math.floor(Date.now() / 1000));
  await expect(page.getByLabel('结束日期')).toHaveValue(today);
  await expect(page.getByLabel('开始日期')).toHaveValue(rangeStart(QUERY_RANGES[1], today));
  await expect(page.getByRole('button', { name: '近 3 个月' })).toHaveClass(/bp6-active/);
});

test('a special invoice title asks for the bank details and takes the 一般纳税人资格证明 picture', async ({ page }) => {
  await signIn(page);
  await page.goto('/billing/invoicing/');
  await page.getByRole('tab', { name: '发票抬头' }).click();
  await page.getByRole('button', { name: '添加发票抬头' }).click();
  const dialog = page.getByRole('dialog', { name: '添加发票抬头' });
  // a normal invoice has no picture field
  await expect(dialog.locator('#root_qualification_pic')).toBeHidden();
  await expect(dialog).not.toContainText('一般纳税人资格证明');
  await dialog.getByText('增值税专用发票', { exact: true }).click();
  const title = `专票测试${Date.now() % 100000}有限公司`;
  await dialog.locator('#root_title').fill(title);
  await dialog.locator('#root_tax_no').fill('91310000MA1FL0XX1A');
  await dialog.getByRole('button', { name: '确定' }).click();
  // the branch's own messages reach the form
  await expect(dialog.getByText('专用发票须填写开户银行')).toBeVisible();
  await dialog.locator('#root_bank').fill('招商银行上海分行');
  await dialog.locator('#root_bank_account').fill('121909876510001');
  await dialog.locator('#root_reg_address').fill('上海市浦东新区示例路 1 号');
  await dialog.locator('#root_reg_phone').fill('021-12345678');
  const uploaded = page.waitForResponse((r) => r.url().includes('/accounts/invoice/pic/') && r.request().method() === 'POST');
  await dialog.locator('#root_qualification_pic').setInputFiles({ name: 'cert.png', mimeType: 'image/png', buffer: PNG });
  expect((await uploaded).status()).toBe(200);
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/account/invoice/info') && r.request().method() === 'PUT');
  await dialog.getByRole('button', { name: '确定' }).click();
  expect((await saved).request().postDataJSON().qualification_pic).toMatch(/^\/accounts\/invoice\/pic\/[0-9a-f]{32}$/);
  await expect(dialog).toBeHidden();
  await expect(page.getByText(title)).toBeVisible();
});

test('收支明细 lists every change of the balance with the balance after it; the newest row’s balance is the header’s', async ({ page }) => {
  await signIn(page);
  await page.goto('/billing/bills/');
  await page.getByRole('link', { name: '收支明细' }).click();
  await expect(page).toHaveURL(/\/billing\/ledger\/$/);
  const rows = page.getByTestId('ledger-table').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  // the server's own figures: the balance is the ledger's sum, and the newest row carries it
  const api = (await (await page.request.get('/api/billing/ledger?page=1&size=1')).json()).data;
  expect(api.balance).toBeCloseTo(api.ledger_sum, 2);
  const newest = await rows.first().locator('td').nth(4).innerText();
  expect(Number(newest.replace(/,/g, ''))).toBeCloseTo(api.entries[0].balance, 2);
  // by kind: only bill settlements
  await page.getByLabel('类型').selectOption('bill');
  await expect(rows.first().locator('td').nth(1)).toHaveText('账单结算');
  for (const kind of await rows.locator('td:nth-child(2)').allInnerTexts()) expect(kind).toBe('账单结算');
});
