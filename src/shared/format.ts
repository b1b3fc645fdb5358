/**
 * Sizes are 1024-based with 3 decimals (spec 000 §9); the one implementation is the statistics'
 * formatBytes (src/shared/stats/units.ts), bandwidth is formatBandwidth there (1000-based).
 */
export { formatBytes as formatSize, formatBandwidth } from './stats/units';
