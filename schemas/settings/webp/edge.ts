import type { EdgeCompiler } from '../../edge';
import { EDGE_OPTIMIZE_TEXTS } from '../../../src/shared/edge-files';

interface Webp { enable: boolean; quality: number; suffixes: string[]; only_when_accept: boolean }

/**
 * WebP 自适应 on the edge: nginx 1.22's image_filter writes the format it read (it reads WebP, it cannot
 * turn a JPG or PNG into one), and no other module of this edge encodes WebP. So the edge answers the
 * original picture, unchanged (no Vary: Accept is added, as one copy serves every client), and the
 * setting's edge state says so (未能生效 with EDGE_OPTIMIZE_TEXTS.webp).
 */
const edge: EdgeCompiler = (v: Webp) => (v?.enable ? { unsupported: EDGE_OPTIMIZE_TEXTS.webp } : null);

export default edge;
