/**
 * Every form under schemas/forms with fixtures (the sub-account form, and any other): valid fixtures
 * pass the schema and the form's rules, invalid ones fail with exactly their messages. A new form
 * folder's fixtures run with no code, as settings' do (fixtures.test.ts).
 */
import { loadForms } from '../../schemas/load';
import { checkForm, formErrors } from '../../schemas/forms';
import { sortErrors } from '../../schemas/check';

const forms = loadForms();

it('finds the forms, the sub-account form among them', () => {
  expect(forms.map((f) => f.id)).toEqual(expect.arrayContaining(['signin', 'subaccount']));
});

describe.each(forms.filter((f) => f.hasFixtures).map((f) => [f.id, f] as const))('form %s', (_id, form) => {
  it('has at least one valid and one invalid fixture', () => {
    expect(form.fixtures.valid.length).toBeGreaterThan(0);
    expect(form.fixtures.invalid.length).toBeGreaterThan(0);
  });

  it.each(form.fixtures.valid.map((f) => [f.file.split('/').slice(-1)[0], f] as const))('valid fixture %s passes', (_n, f) => {
    expect(formErrors(form, f.payload, f.context)).toEqual([]);
  });

  it.each(form.fixtures.invalid.map((f) => [f.file.split('/').slice(-1)[0], f] as const))('invalid fixture %s fails with its messages', (_n, f) => {
    expect(f.errors && f.errors.length).toBeTruthy();
    expect(sortErrors(formErrors(form, f.payload, f.context))).toEqual(sortErrors(f.errors!));
  });
});

it.each(forms.filter((f) => f.hasFixtures).map((f) => [f.id, f] as const))('form %s passes the checks of a declaration (messages, UI schema, fixtures)', (_id, form) => {
  expect(checkForm(form)).toEqual([]);
});
