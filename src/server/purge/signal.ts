/**
 * Wakes the edge nodes' long polls (src/server/edge/purge.ts) when tasks are submitted, so that a purge
 * reaches the edge at once instead of at the poll's next look. In-process only: the poll also looks
 * every second, which covers delayed tasks and other server processes.
 */
import { EventEmitter } from 'node:events';

export const purgeSignal = new EventEmitter();
purgeSignal.setMaxListeners(0);

export const announceTasks = () => purgeSignal.emit('tasks');

/** Resolves when tasks are announced or after `ms`. */
export function nextAnnouncement(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      purgeSignal.off('tasks', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    purgeSignal.on('tasks', done);
  });
}
