/**
 * File management of file services (spec 000 §2.11, spec 002 §7 "/folder/{bucket}/{path}"): the
 * limits, the path rule and the texts both the console and the server use (docs/files-and-media.md).
 */
import type { CursorPager } from './buckets';
import { BIDI_CONTROL_MESSAGE, hasBidiControl } from './text';

export { hasBidiControl };

/** One file or folder as GET /folder/{bucket}/{path} lists it. */
export interface FileEntry {
  id: number;
  /** the full path inside the service, without a leading slash; a folder's ends with / */
  path: string;
  name: string;
  type: 'folder' | 'file';
  size: number;
  content_type: string | null;
  updated_at: string;
}

export interface FolderListing {
  folder: string;
  items: FileEntry[];
  pager: CursorPager;
}

/** Entries per page of a folder (the console's page size; the call accepts 1–1000). */
export const FOLDER_PAGE_SIZE = 50;
export const FOLDER_PAGE_MAX = 1000;
/** The largest file one upload may carry (UPLOAD_MAX_BYTES overrides it on the server). */
export const UPLOAD_MAX_BYTES = 100 * 1024 * 1024;
/**
 * The storage one account may hold across its file services (issue 21 item 19): the specification
 * names no figure, so this is the provider's default (docs/files-and-media.md "Quota"); the server's
 * STORAGE_QUOTA_BYTES overrides it. Files stored plus the uploads still arriving count against it.
 */
export const STORAGE_QUOTA_BYTES = 100 * 1024 ** 3;
/** Files one upload request may carry. */
export const UPLOAD_MAX_FILES = 20;
/** A path: at most this many characters, and a name at most NAME_MAX. */
export const PATH_MAX = 1024;
export const NAME_MAX = 255;

/** The account's standing for its services (spec 000 §3 User.account_status), set by the platform. */
export const ACCOUNT_STATUSES = ['NORMAL', 'DISABLED', 'BLOCKED', 'LOCKED'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
/** The account states in which the file-manage page is blocked by a modal (spec 000 §2.11); the server refuses file management with 27108 too. */
export const FILE_MANAGE_BLOCKED_STATES = ['DISABLED', 'BLOCKED', 'LOCKED'] as const;
/** The modal's texts (the spec names the states, not the words: ours). */
export const FILE_MANAGE_BLOCKED = {
  title: '无法使用文件管理',
  body: '您的账号当前处于禁用、冻结或锁定状态，暂时无法管理文件。如需帮助，请联系客服。',
} as const;

export const FILE_TEXTS = {
  root: '根目录',
  newFolder: '新建目录',
  folderName: '目录名称',
  upload: '上传文件',
  uploading: '正在上传',
  uploaded: '上传成功',
  deleteConfirm: '确定删除 {name} 吗？删除后无法恢复。',
  deleted: '删除成功',
  created: '创建成功',
  empty: '该目录下还没有文件',
  nameInvalid: '名称不能为空，不能包含 / \\ 或控制字符，不能为 . 或 ..，且不超过 255 个字符',
  nameBidi: BIDI_CONTROL_MESSAGE,
} as const;

/**
 * A path inside a service, checked segment by segment: no empty, `.` or `..` segment, no backslash,
 * no control character, no bidirectional control character (U+202E …, `hasBidiControl` of the project's
 * string rules, schemas/vocabulary.ts), names of at most NAME_MAX characters, at most PATH_MAX in all.
 * Returns the segments, or null when the path is refused. '' (the root) is [].
 */
export function pathSegments(p: string): string[] | null {
  if (p.length > PATH_MAX) return null;
  const trimmed = p.replace(/^\/+/, '').replace(/\/+$/, '');
  if (trimmed === '') return [];
  const segs = trimmed.split('/');
  for (const s of segs) if (!validName(s)) return null;
  return segs;
}

export function validName(s: string): boolean {
  return s.length > 0 && s.length <= NAME_MAX && s !== '.' && s !== '..' && !/[\\/\u0000-\u001f\u007f]/.test(s) && !hasBidiControl(s);
}

/** 'a/b' → 'a/b/'; '' → '' (the root). */
export const folderPath = (segs: string[]) => (segs.length ? `${segs.join('/')}/` : '');
