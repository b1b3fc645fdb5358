import type { EdgeCompiler } from '../../edge';
import { ruleRegex } from '../../edge-match';
import { EDGE_FILES_PREFIX, MIRROR_CACHE_KEY_SUFFIX, MIRROR_DYNAMIC_EXTENSIONS, MIRROR_MAX_BYTES, MIRROR_MIN_CACHE_SECONDS } from '../../../src/shared/edge-files';

interface Mirror {
  mirror: 'enable' | 'paused' | 'disable';
  url_patterns: string[];
  mirror_bucket: string;
}

/** A 迁移路径 (`/images/*`, `/static/*.js`: `*` any characters, `/` included) as an anchored regular expression: a cache rule's path. */
export const patternRegex = (pattern: string): string => ruleRegex('path', pattern).re;

/** The data edge.lua gets. */
export interface MirrorData {
  /** The file service whose storage is read first (and filled with 开启). */
  bucket: string;
  /** The 迁移路径 as regular expressions of the path; absent: every static resource. */
  patterns?: string[];
  /** Extensions of pages made by programs (never migrated without paths). */
  dynamic: string[];
  /** 开启: a 200 answer of the origin is stored; 暂停: the storage is read, nothing new stored. */
  store: boolean;
  /** Appended to the request's cache key for the storage's answer (MIRROR_CACHE_KEY_SUFFIX). */
  key_suffix: string;
  /** Only answers cached longer than this are stored (MIRROR_MIN_CACHE_SECONDS). */
  min_seconds: number;
  max_bytes: number;
  /** Where the edge API takes the stored file: `<files>/<bucket>/<path>`. */
  files: string;
  /** The migrating service's id (X-Edge-Mirror-Source). */
  source: string;
}

/**
 * 源站资源迁移 on the edge (spec 002: 开启 reads the storage first, then the origin, and migrates;
 * 暂停 reads the storage first, then the origin, migrating nothing new; 关闭 goes to the origin alone).
 * Data for edge.lua: a GET or HEAD of a path that matches (no paths: every static resource, a name with
 * an extension that is not a program's) is asked of the chosen file service's storage first, through
 * the fetch server with the node key, and cached under the request's key followed by MIRROR_CACHE_KEY_SUFFIX;
 * a miss or a failure there goes to the origin, and with 开启 a 200 answer (at most MIRROR_MAX_BYTES,
 * cached for more than MIRROR_MIN_CACHE_SECONDS) is PUT into that storage by a timer after the answer
 * was sent. An old migration (no storage chosen) uses the service's own storage.
 */
const edge: EdgeCompiler = (v: Mirror, ctx) => {
  if (!v || v.mirror === 'disable' || !ctx.control) return null;
  const data: MirrorData = {
    bucket: v.mirror_bucket || ctx.service.name,
    ...(v.url_patterns.length ? { patterns: v.url_patterns.map(patternRegex) } : {}),
    dynamic: [...MIRROR_DYNAMIC_EXTENSIONS],
    store: v.mirror === 'enable',
    key_suffix: MIRROR_CACHE_KEY_SUFFIX,
    min_seconds: MIRROR_MIN_CACHE_SECONDS,
    max_bytes: MIRROR_MAX_BYTES,
    files: EDGE_FILES_PREFIX,
    source: String(ctx.service.id),
  };
  return { data };
};

export default edge;
