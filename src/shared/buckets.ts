import type { ServiceKind } from './services';

/** A service as the server sends it (spec 000 §3 "Service (bucket) info"). */
export interface BucketInfo {
  bucket_id: number;
  bucket_name: string;
  kind: ServiceKind;
  type: 'file' | 'image' | 'ucdn' | 'cdn';
  business_type: 'file' | 'live';
  fusion_cdn: boolean;
  websocket: boolean;
  abroad: boolean;
  security_cdn: boolean;
  remark: string | null;
  status: string;
  storage: { used: number };
  domains?: { domain: string; cname: string }[];
  created_at: string;
}

/** Cursor pager: `since` pages back, `max` pages forward; a cursor is null when there is nothing that way. */
export interface CursorPager {
  since: number | null;
  max: number | null;
}

/** Bucket names: 5 to 40 characters, lowercase letters, digits and hyphens, starting with a letter. */
export const BUCKET_NAME_PATTERN = /^[a-z][a-z0-9-]{4,39}$/;
