/**
 * What a person sees instead of a blank page when a section fails: a chunk that timed out (120 s),
 * is missing or failed to load (spec 000 §8 "ChunkLoadError"), or an unexpected error while rendering.
 */
import { useRouteError } from 'react-router-dom';
import { Button, NonIdealState } from '@blueprintjs/core';

export function isChunkLoadError(e: unknown): boolean {
  const err = e as { name?: string; message?: string } | null;
  return Boolean(err && (err.name === 'ChunkLoadError' || /Loading (CSS )?chunk .* failed|Failed to fetch dynamically imported module/i.test(err.message ?? '')));
}

export function RouteError() {
  return <SectionError error={useRouteError()} />;
}

export function SectionError({ error }: { error: unknown }) {
  const chunk = isChunkLoadError(error);
  return (
    <NonIdealState
      className="route-error"
      icon={chunk ? 'offline' : 'error'}
      title={chunk ? '页面加载失败' : '页面出错了'}
      description={chunk ? '网络似乎不稳定，页面资源未能加载，请检查网络后重新加载。' : '发生了点错误，请稍后再尝试。如果问题持续出现，请联系我们的客服。'}
      action={
        <Button intent="primary" icon="refresh" onClick={() => window.location.reload()}>
          重新加载
        </Button>
      }
    />
  );
}
