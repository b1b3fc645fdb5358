/**
 * Dialogs that are unmounted when they close (rather than closed with `isOpen={false}`) give Blueprint no
 * chance to hand focus back, and focus falls to <body> (issue 24). A dialog calls this hook: the element
 * that had focus when it first rendered (its 管理 or 添加 button) gets it back when the dialog goes away,
 * unless something else has taken focus meanwhile.
 */
import { useEffect, useRef } from 'react';

export function useReturnFocus(): void {
  const opener = useRef<Element | null>(typeof document === 'undefined' ? null : document.activeElement);
  useEffect(() => {
    const element = opener.current;
    return () => {
      setTimeout(() => {
        const active = document.activeElement;
        if ((!active || active === document.body) && element instanceof HTMLElement && element.isConnected) element.focus();
      });
    };
  }, []);
}
