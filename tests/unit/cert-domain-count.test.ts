/** The domain-count check of purchased certificates (spec 002 §5) as a table of cases, and the re-issue domain rules. */
import { countsAllowed, domainCountCheck, lineCountOk, orderDomainError, orderPrice, CERT_PRODUCTS, REISSUE_TEXTS, type DomainCountInput } from '../../src/shared/certificates';

type Case = [string, DomainCountInput, boolean, boolean];
const c = (domains: string[], brand: string, domain_type: DomainCountInput['domain_type'], defaultDomain: number, generalDomain: number): DomainCountInput => ({ domains, brand, domain_type, defaultDomain, generalDomain });

const CASES: Case[] = [
  // classification
  ['distinct plain domains', c(['a.example.com', 'b.example.com'], 'digicert', 'multiple', 2, 0), true, true],
  ['duplicate plain domains', c(['a.example.com', 'a.example.com'], 'digicert', 'multiple', 2, 0), false, true],
  ['duplicates ignore case and spaces', c(['A.example.com', ' a.example.com'], 'digicert', 'multiple', 2, 0), false, true],
  ['www. plus the same remainder is a duplicate', c(['www.example.com', 'example.com'], 'digicert', 'multiple', 2, 0), false, true],
  ['www. of another remainder is fine', c(['www.example.com', 'example.org'], 'digicert', 'multiple', 2, 0), true, true],
  ['duplicate wildcards', c(['*.example.com', '*.example.com', 'example.com'], 'digicert', 'mix', 1, 2), false, true],
  ['wildcard and plain at the same level with the same base', c(['*.example.com', 'a.example.com'], 'digicert', 'mix', 1, 1), false, true],
  ['wildcard and www at the same level', c(['*.example.com', 'www.example.com'], 'digicert', 'mix', 1, 1), false, true],
  ['wildcard and its bare base (another level)', c(['*.example.com', 'example.com'], 'digicert', 'mix', 1, 1), true, true],
  ['wildcard and a deeper plain domain', c(['*.example.com', 'a.b.example.com'], 'digicert', 'mix', 1, 1), true, true],
  ['wildcard and plain of another base', c(['*.example.com', 'a.example.org'], 'digicert', 'mix', 1, 1), true, true],
  // totals, mix
  ['mix geotrust: 1 to 5 plain plus the bought wildcards', c(['a.example.com', 'b.example.com', '*.example.org'], 'geotrust', 'mix', 4, 1), true, true],
  ['mix geotrust: 5 plain is the most', c(['a1.x.com', 'a2.x.com', 'a3.x.com', 'a4.x.com', 'a5.x.com', 'a6.x.com', '*.y.com'], 'geotrust', 'mix', 3, 1), true, false],
  ['mix geotrust: at least 1 plain', c(['*.y.com'], 'geotrust', 'mix', 1, 1), true, false],
  ['mix geotrust: wildcards exact', c(['a.x.com', '*.y.com', '*.z.com'], 'geotrust', 'mix', 1, 1), true, false],
  ['mix geotrust: more than 5 bought means exact', c(['a1.x.com', 'a2.x.com', 'a3.x.com', 'a4.x.com', 'a5.x.com', '*.y.com'], 'geotrust', 'mix', 6, 1), true, false],
  ['mix geotrust: more than 5 bought, exact count', c(['a1.x.com', 'a2.x.com', 'a3.x.com', 'a4.x.com', 'a5.x.com', 'a6.x.com', '*.y.com'], 'geotrust', 'mix', 6, 1), true, true],
  ['mix other brand: exact', c(['a.x.com', '*.y.com'], 'digicert', 'mix', 1, 1), true, true],
  ['mix other brand: fewer plain', c(['a.x.com', '*.y.com'], 'digicert', 'mix', 2, 1), true, false],
  ['mix other brand: brand name in any case', c(['a.x.com', '*.y.com'], 'DigiCert', 'mix', 1, 1), true, true],
  // totals, multiple
  ['multiple trustasia: 2 to 5', c(['a.x.com', 'b.x.com', 'c.x.com'], 'trustasia', 'multiple', 5, 0), true, true],
  ['multiple trustasia: 1 is too few', c(['a.x.com'], 'trustasia', 'multiple', 2, 0), true, false],
  ['multiple geotrust: 6 is too many when 5 bought', c(['a1.x.com', 'a2.x.com', 'a3.x.com', 'a4.x.com', 'a5.x.com', 'a6.x.com'], 'geotrust', 'multiple', 5, 0), true, false],
  ['multiple geotrust: more than 5 bought means exact', c(['a1.x.com', 'a2.x.com', 'a3.x.com', 'a4.x.com', 'a5.x.com', 'a6.x.com', 'a7.x.com'], 'geotrust', 'multiple', 7, 0), true, true],
  ['multiple geotrust: more than 5 bought, fewer given', c(['a1.x.com', 'a2.x.com', 'a3.x.com'], 'geotrust', 'multiple', 7, 0), true, false],
  ['multiple trustasia: no wildcards', c(['a.x.com', '*.y.com'], 'trustasia', 'multiple', 2, 0), true, false],
  ['multiple other brand: exact', c(['a.x.com', 'b.x.com', 'c.x.com'], 'digicert', 'multiple', 3, 0), true, true],
  ['multiple other brand: not exact', c(['a.x.com', 'b.x.com'], 'digicert', 'multiple', 3, 0), true, false],
  // single and wildcard
  ['single: one plain', c(['a.x.com'], 'digicert', 'single', 1, 0), true, true],
  ['single: two', c(['a.x.com', 'b.x.com'], 'digicert', 'single', 1, 0), true, false],
  ['wildcard: one wildcard', c(['*.x.com'], 'sslTrus', 'wildcard', 0, 1), true, true],
  ['wildcard: a plain domain instead', c(['a.x.com'], 'sslTrus', 'wildcard', 0, 1), true, false],
];

describe('domainCountCheck', () => {
  it.each(CASES)('%s', (_name, input, classificationCheck, totalNumberCheck) => {
    expect(domainCountCheck(input)).toEqual({ classificationCheck, totalNumberCheck });
  });
});

describe('one domain of an order', () => {
  it.each([
    ['www.example.com', false, null],
    ['*.example.com', true, null],
    ['*.example.com', false, REISSUE_TEXTS.noWildcard],
    ['a_b.example.com', true, REISSUE_TEXTS.symbol],
    ['example', true, REISSUE_TEXTS.invalid],
    ['http://example.com', true, REISSUE_TEXTS.invalid],
    ['*.*.example.com', true, REISSUE_TEXTS.invalid],
    ['demo-www.b0.cdn-default.example.net', true, REISSUE_TEXTS.provider],
    ['cdn-cname.example.net', true, REISSUE_TEXTS.provider],
    ['', true, REISSUE_TEXTS.required],
  ])('%s (wildcards %s) → %s', (domain, allow, message) => {
    expect(orderDomainError(domain as string, allow as boolean)).toBe(message);
  });

  it('counts unique non-empty lines against the limit', () => {
    expect(lineCountOk(['a', 'a', '', 'b'], 2)).toBe(true);
    expect(lineCountOk(['a', 'b', 'c'], 2)).toBe(false);
  });
});

describe('products and prices', () => {
  it('every product id is unique and every brand of spec 002 §9 is sold', () => {
    expect(new Set(CERT_PRODUCTS.map((p) => p.product_id)).size).toBe(CERT_PRODUCTS.length);
    for (const b of ['digicert', 'geotrust', 'trustasia', 'sslTrus', 'globalsign']) expect(CERT_PRODUCTS.some((p) => p.brand === b)).toBe(true);
  });

  it('prices extra domains by the year', () => {
    const mixed = CERT_PRODUCTS.find((p) => p.product_id === 'trustasia-dv-mixed')!;
    expect(orderPrice(mixed, 1, 1, 1)).toBe(1898);
    expect(orderPrice(mixed, 2, 3, 2)).toBe((1898 + 2 * 299 + 1699) * 2);
    expect(countsAllowed('single', 1, 0)).toBeNull();
    expect(countsAllowed('single', 2, 0)).toBe('域名数量与证书类型不符');
    expect(countsAllowed('mixed', 0, 1)).toBe('域名数量与证书类型不符');
  });
});
