import type { EdgeCompiler } from '../../edge';
import { EDGE_OPTIMIZE_TEXTS } from '../../../src/shared/edge-files';

interface Version { name: string; mode: 'fit' | 'fill' | 'width' | 'height'; width: number; height: number; quality: number; format: 'original' | 'jpg' | 'png' | 'webp' }
interface ThumbVersions { separator: '!' | '-' | '_'; versions: Version[] }

/** One version as edge.lua takes it: image_filter's operation, its sizes (`-`: a free side) and quality. */
export interface ThumbData {
  sep: string;
  versions: { name: string; op: 'resize' | 'crop'; w: string; h: string; q: number }[];
}

/** image_filter's operation and sizes for a 缩放方式. */
const OPERATION: Record<Version['mode'], (v: Version) => Pick<ThumbData['versions'][number], 'op' | 'w' | 'h'>> = {
  fit: (v) => ({ op: 'resize', w: String(v.width), h: String(v.height) }), // within the box, proportions kept
  fill: (v) => ({ op: 'crop', w: String(v.width), h: String(v.height) }), // scaled to cover the box, the rest cut off
  width: (v) => ({ op: 'resize', w: String(v.width), h: '-' }),
  height: (v) => ({ op: 'resize', w: '-', h: String(v.height) }),
};

/**
 * 缩略图版本 on the edge, with nginx's image_filter module: `/photo.jpg!small` asks the origin (and the
 * edge's cache, under the picture's own key) for `/photo.jpg` and answers it scaled as the version says,
 * at the version's quality. edge.lua finds the version by the path's end (the first version in the list
 * when several end it), sets the path to the picture's own and `req.img`, which sends the request
 * through the node's image variant (@img_resize, @img_crop: image_filter with variables, THUMB_MAX_BYTES).
 * image_filter reads JPEG, GIF, PNG and WebP, and writes the format it read: a version with another
 * 输出格式 keeps the original's format (the setting's edge note says which). Something that is not a
 * picture (or is over THUMB_MAX_BYTES) is answered 415.
 */
const edge: EdgeCompiler = (v: ThumbVersions) => {
  if (!v?.versions?.length) return null;
  const converted = v.versions.filter((x) => x.format !== 'original').map((x) => x.name);
  const data: ThumbData = { sep: v.separator, versions: v.versions.map((x) => ({ name: x.name, ...OPERATION[x.mode](x), q: x.quality })) };
  return { data, ...(converted.length ? { unsupported: EDGE_OPTIMIZE_TEXTS.thumbFormat(converted) } : {}) };
};

export default edge;
