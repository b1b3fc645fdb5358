/**
 * Every tab list of the console is drawn here (issue 24): Blueprint's `Tabs` with two repairs.
 *
 * - Keyboard. Blueprint 6 moves between tabs with the arrow keys only among titles that carry
 *   `aria-disabled="false"`, which it writes from each `Tab`'s `disabled` prop. With React 19 a class's
 *   `defaultProps` are no longer put into `element.props`, and `Tabs` reads the children's props, so the
 *   default `disabled: false` never reaches the title: arrow keys, Enter and Space did nothing. Each `Tab`
 *   without `disabled` is given `disabled={false}`.
 * - `aria-controls`. A title names the panel Blueprint would draw for it; tabs whose content is drawn
 *   outside the list (a route, a table below) have no panel, and with `renderActiveTabPanelOnly` only the
 *   selected one exists. A title keeps `aria-controls` only while its panel is in the page.
 *
 * Import `Tab` and `Tabs` from this module, never from '@blueprintjs/core' (tests/unit/console-tabs.test.ts).
 */
import { Children, cloneElement, isValidElement, useLayoutEffect, useReducer, useRef, type ReactElement } from 'react';
import { Classes, Tab, Tabs as BlueprintTabs, type TabProps, type TabsProps } from '@blueprintjs/core';

export { Tab };
export type { TabProps, TabsProps };

export function Tabs(props: TabsProps) {
  const ref = useRef<BlueprintTabs>(null);
  // a tab list that keeps its own selection changes its panels without rendering this wrapper again
  const [, rendered] = useReducer((n: number) => n + 1, 0);
  const children = Children.map(props.children, (child) =>
    isValidElement(child) && child.type === Tab && (child as ReactElement<TabProps>).props.disabled === undefined
      ? cloneElement(child as ReactElement<TabProps>, { disabled: false })
      : child,
  );
  useLayoutEffect(() => {
    const list = (ref.current as unknown as { tablistElement: HTMLElement | null } | null)?.tablistElement;
    if (!list) return;
    list.querySelectorAll<HTMLElement>(`.${Classes.TAB}[role="tab"]`).forEach((title) => {
      const panelId = `${Classes.TAB_PANEL}_${props.id}_${title.dataset.tabId}`;
      if (document.getElementById(panelId)) title.setAttribute('aria-controls', panelId);
      else title.removeAttribute('aria-controls');
    });
  });
  return (
    <BlueprintTabs
      ref={ref}
      {...props}
      onChange={(next, prev, event) => {
        props.onChange?.(next, prev, event);
        rendered();
      }}
    >
      {children}
    </BlueprintTabs>
  );
}
