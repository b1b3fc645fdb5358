/**
 * File services, mirror migration and images on the edge (docs/edge.md "File services, mirror
 * migration and images"): the facts both the control plane's storage routes (src/server/edge/files.ts)
 * and the settings' edge compilers (schemas/settings/{mirror,webp,thumb_versions,minify}/edge.ts) read.
 */
import { EDGE_API_PREFIX } from './edge';

/** The storage behind the edge API: `GET|HEAD|PUT <prefix>/<service name>/<path>` (node key). */
export const EDGE_FILES_PREFIX = `${EDGE_API_PREFIX}/files`;

/**
 * How long the edge keeps a file service's object before asking the storage again (X-Accel-Expires:
 * the edge's cache only, browsers are not told). A replaced file shows within this time, or at once after 刷新.
 */
export const FILE_EDGE_TTL_SECONDS = 600;

/**
 * The mirror's storage lookups are cached under the request's key followed by this suffix (an object
 * cached from the origin before migration began must not pass for a stored one); a URL purge removes
 * both (src/edge/purge/runner.ts).
 */
export const MIRROR_CACHE_KEY_SUFFIX = '#mirror';

/** Mirror migration takes only answers the edge caches for longer than this (the panel's 仅缓存时间超过 24 小时的文件会被迁移). */
export const MIRROR_MIN_CACHE_SECONDS = 24 * 3600;

/** The largest answer the edge migrates into storage (bigger ones are served but not stored). */
export const MIRROR_MAX_BYTES = 32 * 1024 * 1024;

/** Header the edge sends with a migrated object: the id of the service whose request fetched it. */
export const MIRROR_SOURCE_HEADER = 'x-edge-mirror-source';

/** Migration with no paths migrates every static resource: a last segment with an extension, except these (pages made by programs). */
export const MIRROR_DYNAMIC_EXTENSIONS = ['php', 'asp', 'aspx', 'jsp', 'jspx', 'cgi', 'pl', 'py', 'do', 'action', 'shtml'] as const;

/** The largest HTML or CSS answer the edge minifies (页面优化); a bigger one is sent as the origin sent it. */
export const MINIFY_MAX_BYTES = 2 * 1024 * 1024;

/** The largest image the edge resizes (image_filter_buffer); a bigger one is answered 415 by nginx. */
export const THUMB_MAX_BYTES = 16 * 1024 * 1024;

/** What the edge cannot do as asked (shown as 未能生效 with this reason on the setting's panel). */
export const EDGE_OPTIMIZE_TEXTS = {
  webp: '本边缘节点（nginx 1.22 的 image_filter 模块）不能把 JPG、PNG 转换为 WebP：图片按原格式返回，节点不做转换',
  thumbFormat: (names: string[]) => `本边缘节点（nginx 1.22 的 image_filter 模块）不能转换图片格式：版本 ${names.join('、')} 按原图格式输出，缩放与质量照常生效`,
  minify: '本边缘节点不能安全地压缩 JavaScript：JavaScript 按源站原文返回，HTML、CSS 照常压缩',
} as const;
