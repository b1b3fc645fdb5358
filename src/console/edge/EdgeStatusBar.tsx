/**
 * A service's state on the edge, on its page (docs/edge.md "The console"): the configuration version
 * the edge runs and when it applied it, the service's own version, a refusal with nginx's reason, and
 * what this edge cannot do (notes). Without an edge, a quiet note instead (EDGE_TEXTS.noEdge).
 */
import { useEffect, useState } from 'react';
import { Button, Callout, Classes, Icon, Tag } from '@blueprintjs/core';
import { EDGE_TEXTS, type EdgeStatus } from '../../shared/edge';
import { formatTime } from '../../shared/stats/time';
import { refreshEdge, watchEdge, type EdgeView } from './edgeWatch';
import './edge.css';

/** The service's state in the settings' words: refused is 未能生效. */
const SERVICE_STATE = { applied: 'applied', pending: 'pending', refused: 'failed' } as const;
const INTENTS = { applied: 'success', pending: 'warning', refused: 'danger' } as const;

export function EdgeStatusBar({ bucketName }: { bucketName: string }) {
  const [view, setView] = useState<EdgeView>({ status: 'loading' });
  useEffect(() => watchEdge(bucketName, setView), [bucketName]);

  if (view.status === 'loading') return null;
  if (view.status === 'failed')
    return (
      <p className={`edge-status edge-status-quiet ${Classes.TEXT_MUTED}`}>
        <Icon icon="info-sign" size={12} /> {EDGE_TEXTS.unavailable}
        <Button variant="minimal" size="small" icon="refresh" onClick={() => refreshEdge(bucketName)} className="edge-status-refresh">
          {EDGE_TEXTS.refresh}
        </Button>
      </p>
    );
  const edge = view.edge;
  if (!edge.enabled)
    return (
      <p className={`edge-status edge-status-off ${Classes.TEXT_MUTED}`}>
        <Icon icon="info-sign" size={12} /> {EDGE_TEXTS.noEdge}
      </p>
    );
  return <EdgeStatusLine bucketName={bucketName} edge={edge} />;
}

function EdgeStatusLine({ bucketName, edge }: { bucketName: string; edge: EdgeStatus }) {
  const notes = Object.values(edge.notes);
  return (
    <section className="edge-status" aria-label={EDGE_TEXTS.title}>
      <div className="edge-status-line">
        <span className="edge-status-title">
          <Icon icon="globe-network" size={14} /> {EDGE_TEXTS.title}
          {edge.node && <span className={Classes.TEXT_MUTED}>（{edge.node}）</span>}
        </span>
        {edge.state && (
          <Tag minimal intent={INTENTS[edge.state]} className="edge-status-state" data-state={edge.state} aria-live="polite">
            {EDGE_TEXTS.settingState[SERVICE_STATE[edge.state]]}
          </Tag>
        )}
        <span className="edge-status-fact">
          {EDGE_TEXTS.runs}：<b className="edge-status-applied">{edge.applied_version ?? EDGE_TEXTS.notApplied}</b>
        </span>
        <span className="edge-status-fact">
          {EDGE_TEXTS.serviceVersion}：<b className="edge-status-version">{edge.version}</b>
        </span>
        {edge.applied_at && (
          <span className="edge-status-fact">
            {EDGE_TEXTS.appliedAt}：<span className="edge-status-time">{formatTime(Math.floor(Date.parse(edge.applied_at) / 1000))}</span>
          </span>
        )}
        <Button variant="minimal" size="small" icon="refresh" onClick={() => refreshEdge(bucketName)} className="edge-status-refresh">
          {EDGE_TEXTS.refresh}
        </Button>
      </div>
      {edge.state === 'refused' && (
        <Callout intent="warning" compact className="edge-status-refused">
          {EDGE_TEXTS.refused}
          {edge.message && (
            <p className="edge-status-reason">
              {EDGE_TEXTS.reason}
              {edge.message}
            </p>
          )}
        </Callout>
      )}
      {notes.length > 0 && (
        <ul className={`edge-status-notes ${Classes.TEXT_MUTED}`}>
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
