import type { EdgeCompiler } from '../../edge';
import { EDGE_OPTIMIZE_TEXTS, THUMB_MAX_BYTES } from '../../../src/shared/edge-files';

interface Version { name: string; mode: 'fit' | 'fill' | 'width' | 'height'; width: number; height: number; quality: number; format: 'original' | 'jpg' | 'png' | 'webp' }
interface ThumbVersions { separator: '!' | '-' | '_'; versions: Version[] }

/** A Lua pattern matching the text literally (every character that is not a letter or digit escaped with %), quoted. */
const luaPattern = (text: string) => JSON.stringify(text.replace(/[^A-Za-z0-9]/g, '%$&'));

/** image_filter's operation for a 缩放方式. */
const OPERATION: Record<Version['mode'], (v: Version) => string> = {
  fit: (v) => `resize ${v.width} ${v.height}`, // within the box, proportions kept
  fill: (v) => `crop ${v.width} ${v.height}`, // scaled to cover the box, the rest cut off
  width: (v) => `resize ${v.width} -`,
  height: (v) => `resize - ${v.height}`,
};

/**
 * 缩略图版本 on the edge, with nginx's image_filter module: `/photo.jpg!small` asks the origin (and the
 * edge's cache, under the picture's own key) for `/photo.jpg` and answers it scaled as the version says,
 * JPEG at the version's quality. image_filter reads JPEG, GIF, PNG and WebP, and writes the format it read:
 * a version with another 输出格式 keeps the original's format (the setting's edge note says which).
 * Something that is not a picture (or is over THUMB_MAX_BYTES) is answered 415.
 */
const edge: EdgeCompiler = (v: ThumbVersions) => {
  if (!v?.versions?.length) return null;
  const sep = v.separator; // !, - and _ mean themselves in a regular expression
  const converted = v.versions.filter((x) => x.format !== 'original').map((x) => x.name);
  return {
    locations: v.versions.map((x) => ({
      // names are [A-Za-z0-9_-]: nothing to quote
      match: `~ ^(.+)${sep}${x.name}$`,
      order: -100,
      directives: [
        // a file service's storage path: the one service.ts sets comes after the break below and is skipped
        `set_by_lua_block $edge_file_uri { return require("edge_files").escape_path((ngx.var.uri:gsub(${luaPattern(sep + x.name)} .. "$", ""))) }`,
        `rewrite ^(.+)${sep}${x.name}$ $1 break;`,
        `image_filter ${OPERATION[x.mode](x)};`,
        `image_filter_jpeg_quality ${x.quality};`,
        `image_filter_webp_quality ${x.quality};`,
        `image_filter_buffer ${THUMB_MAX_BYTES};`,
      ],
    })),
    ...(converted.length ? { unsupported: EDGE_OPTIMIZE_TEXTS.thumbFormat(converted) } : {}),
  };
};

export default edge;
