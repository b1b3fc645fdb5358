/**
 * Media processing of file services (spec 002 §7 "/av/…", usage keys of spec 001 §3; docs/files-and-media.md).
 * The form is the declaration schemas/forms/av_pretreatment/; these are the facts both sides share.
 */
import type { CursorPager } from './buckets';

export const MEDIA_TASK_TYPES = {
  transcode: '视频转码',
  hls: 'HLS 切片',
  watermark: '视频水印',
  clip: '视频剪辑',
  concat: '视频拼接',
  thumbnail: '视频截图',
  audio_transcode: '音频转码',
  audio_concat: '音频拼接',
  probe: '媒体信息',
} as const;
export type MediaTaskType = keyof typeof MEDIA_TASK_TYPES;

/** Resolution presets: the output's height; the width follows the source's aspect ratio (even). */
export const RESOLUTION_PRESETS = { '360p': 360, '480p': 480, '720p': 720, '1080p': 1080 } as const;
export type ResolutionPreset = keyof typeof RESOLUTION_PRESETS;

export const MEDIA_STATUS_TEXTS: Record<MediaTaskStatus, string> = {
  waiting: '等待处理',
  processing: '处理中',
  success: '已完成',
  failed: '处理失败',
};
export type MediaTaskStatus = 'waiting' | 'processing' | 'success' | 'failed';

export interface MediaTask {
  task_id: number;
  bucket_name: string;
  type: MediaTaskType;
  params: Record<string, unknown>;
  status: MediaTaskStatus;
  progress: number;
  error: string | null;
  result: { outputs?: string[]; duration?: number; width?: number; height?: number; probe?: unknown } | null;
  usage_key: string | null;
  minutes: number | null;
  created_at: string;
  finished_at: string | null;
}

export interface MediaTaskList {
  data: MediaTask[];
  pager: CursorPager;
}

/** Minutes by resolution (spec 001 §3): the suffix of video_transcode, video_hls, video_watermark, video_clip. */
export function resolutionClass(height: number): 'lt480p' | 'gte480p' | 'gte720p' | 'gte1080p' {
  if (height >= 1080) return 'gte1080p';
  if (height >= 720) return 'gte720p';
  if (height >= 480) return 'gte480p';
  return 'lt480p';
}

/** The usage key (spec 001 §3) a finished task is billed under. */
export function usageKeyOf(type: MediaTaskType, outputHeight?: number): string {
  switch (type) {
    case 'transcode':
    case 'hls':
    case 'watermark':
    case 'clip':
      return `video_${type}_${resolutionClass(outputHeight ?? 0)}`;
    case 'concat':
      return 'video_vconcat';
    case 'thumbnail':
      return 'video_thumbnail';
    case 'audio_transcode':
      return 'audio_transcode_async';
    case 'audio_concat':
      return 'audio_aconcat';
    case 'probe':
      return 'probe';
  }
}

/** Tasks a page of GET /av/tasklist holds by default; the console polls a running task this often. */
export const MEDIA_TASK_PAGE_SIZE = 20;
export const MEDIA_POLL_MS = 2000;
/** GET /av/tasklist is given up after 30 s (spec 002 §7 "30 s time-out"). */
export const TASKLIST_TIMEOUT_MS = 30_000;
export const TASKLIST_TIMEOUT_TEXT = '获取任务列表超时，请稍后刷新';

/** The form fields each type uses (besides bucket_name and type): the console shows these, the server keeps only these. */
export const MEDIA_FIELDS: Record<MediaTaskType, string[]> = {
  transcode: ['source', 'save_as', 'preset'],
  hls: ['source', 'save_as', 'preset', 'segment_time'],
  watermark: ['source', 'save_as', 'preset', 'watermark_text'],
  clip: ['source', 'save_as', 'start', 'duration'],
  concat: ['sources', 'save_as'],
  thumbnail: ['source', 'save_as', 'start', 'count', 'interval'],
  audio_transcode: ['source', 'save_as', 'audio_format', 'audio_bitrate'],
  audio_concat: ['sources', 'save_as', 'audio_format', 'audio_bitrate'],
  probe: ['source'],
};
