import type { EdgeCompiler } from '../../edge';
import { EDGE_OPTIMIZE_TEXTS, MINIFY_MAX_BYTES } from '../../../src/shared/edge-files';

interface Minify { enable: boolean; html: boolean; css: boolean; js: boolean }

/**
 * 页面优化 on the edge, in Lua (edge.lua; nginx has no module for it): HTML (comments, whitespace outside
 * <pre>, <textarea>, <script>, <style>) and CSS (comments, whitespace) of 200 answers up to
 * MINIFY_MAX_BYTES, before gzip or brotli. JavaScript is sent as the origin sent it: taking out whitespace
 * and comments safely needs a parser (regular expressions, template strings, automatic semicolons), which
 * this edge does not have; the setting's edge note says so when JavaScript is on.
 */
const edge: EdgeCompiler = (v: Minify) => {
  if (!v?.enable) return null;
  const out = v.js ? { unsupported: EDGE_OPTIMIZE_TEXTS.minify } : {};
  if (!v.html && !v.css) return out;
  return { ...out, data: { html: v.html, css: v.css, max: MINIFY_MAX_BYTES } };
};

export default edge;
