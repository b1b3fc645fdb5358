/**
 * The provider's tech-blog entries on the dashboard (spec 000 §7 "A tech-blog feed is read from the
 * provider's site"): an RSS 2.0 or Atom feed at a configured address, fetched by the server (never by
 * the browser), cached for an hour; a feed that cannot be read keeps the last good entries, or none.
 */
export interface BlogEntry {
  title: string;
  link: string;
  /** unix seconds, or null when the feed gives no date */
  date: number | null;
}

export const BLOG_CACHE_MS = 3_600_000;
export const BLOG_MAX_ENTRIES = 5;
const FETCH_TIMEOUT_MS = 5000;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function text(s: string | undefined): string {
  if (!s) return '';
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(s);
  const raw = cdata ? cdata[1] : s.replace(/<[^>]+>/g, '');
  return raw
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
      e[0] === '#' ? String.fromCodePoint(e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (ENTITIES[e.toLowerCase()] ?? m),
    )
    .trim();
}
const tag = (xml: string, name: string) => new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'i').exec(xml)?.[1];

/** The entries of an RSS 2.0 (<item>) or Atom (<entry>) document; only http(s) links are kept. */
export function parseFeed(xml: string): BlogEntry[] {
  const blocks = [...xml.matchAll(/<(item|entry)(?:\s[^>]*)?>([\s\S]*?)<\/\1>/gi)].map((m) => m[2]);
  const out: BlogEntry[] = [];
  for (const b of blocks) {
    const title = text(tag(b, 'title'));
    const link = text(tag(b, 'link')) || (/<link\b[^>]*\bhref="([^"]+)"/i.exec(b)?.[1] ?? '');
    const when = text(tag(b, 'pubDate') ?? tag(b, 'updated') ?? tag(b, 'published'));
    const ms = when ? Date.parse(when) : NaN;
    if (!title || !/^https?:\/\//i.test(link)) continue;
    out.push({ title, link: text(link), date: Number.isFinite(ms) ? Math.floor(ms / 1000) : null });
  }
  return out.slice(0, BLOG_MAX_ENTRIES);
}

export function blogReader(feedUrl: string | null, now: () => number = Date.now) {
  let cache: { at: number; entries: BlogEntry[] } | null = null;
  return async function entries(): Promise<BlogEntry[]> {
    if (!feedUrl) return [];
    if (cache && now() - cache.at < BLOG_CACHE_MS) return cache.entries;
    try {
      const res = await fetch(feedUrl, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/rss+xml, application/atom+xml, text/xml' } });
      if (!res.ok) throw new Error(`feed ${res.status}`);
      cache = { at: now(), entries: parseFeed(await res.text()) };
    } catch {
      // keep the last good entries; try again after the cache time
      cache = { at: now(), entries: cache?.entries ?? [] };
    }
    return cache.entries;
  };
}
