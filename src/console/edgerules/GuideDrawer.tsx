/**
 * The help of the edge-rule screens: a user guide (how rules run, both modes) and the language
 * reference, generated from the catalogue the parser and the editor use.
 */
import { Drawer, DrawerSize, H5, HTMLTable, Tag } from '@blueprintjs/core';
import { Tab, Tabs } from '../common/Tabs';
import { CATEGORY_LABELS, FUNCTIONS, VARIABLES, type FunctionCategory } from '../../shared/edgerules';
import { FEATURES } from './model';

export type GuideTab = 'guide' | 'reference';

function Guide() {
  return (
    <div className="edge-guide">
      <H5>规则如何执行</H5>
      <ul>
        <li>同一服务的规则按优先级从小到大依次执行；在列表中拖动规则可以调整顺序。</li>
        <li>状态为“关闭”的规则不执行；“调试”状态的规则只对指定 IP 发出的请求生效，新建的规则默认处于调试状态，IP 为您当前的地址。</li>
        <li>勾选“匹配后不再执行后续规则”（或在编程模式的规则末尾写 <code>$$</code>）后，该规则命中时不再执行之后的规则。</li>
        <li>边缘重定向、访问控制和自定义错误页面会直接响应请求，并结束整个规则集。</li>
        <li>URI 改写在所有其他规则执行完之后才生效；如果规则集被提前结束，改写不会生效。</li>
        <li>规则保存后约 5 分钟在全网生效；保存前可以用“规则测试”模拟请求，查看规则的效果。</li>
      </ul>
      <H5>普通模式</H5>
      <p>设置判断条件（最多 10 个，需全部满足）并选择一个功能：{FEATURES.map((f) => f.label).join('、')}。没有判断条件的规则对所有请求生效。</p>
      <p>重定向地址和改写规则中可以用 <code>$1</code>、<code>$2</code> 引用“URI 字符串提取”的分组，用 <code>$_HOST</code>、<code>$_GET_参数名</code> 等引用变量。</p>
      <H5>编程模式</H5>
      <p>
        规则由函数调用和文本组成，例如 <code>$WHEN($MATCH($_URI, &apos;\.m3u8$&apos;), $NOT($_GET_sign))$EXIT(403)</code>。函数调用执行其作用，剩下的文本（非空时）就是改写后的 URI。
        URI 提取模式中的分组在规则中用 <code>$1</code>…<code>$9</code> 引用。
      </p>
      <ul>
        <li>普通文本中不能直接出现 <code>$ ( ) , &apos;</code>，需要时在前面加 <code>\</code>；文本中的空白会被忽略。</li>
        <li>单引号中的内容按原样使用，只有 <code>\&apos;</code> 和 <code>\\</code> 是转义，适合书写正则表达式。</li>
        <li>改写目标末尾写一个 <code>?</code> 去掉原查询字符串，写 <code>??</code> 表示改写后没有查询字符串。</li>
        <li>点击“校验”检查语法；编辑器会标出出错的位置，输入 <code>$</code> 可查看所有函数和变量。</li>
      </ul>
    </div>
  );
}

function Reference() {
  const categories = [...new Set(FUNCTIONS.map((f) => f.category))] as FunctionCategory[];
  return (
    <div className="edge-reference">
      {categories.map((c) => (
        <section key={c}>
          <H5>{CATEGORY_LABELS[c]}</H5>
          <HTMLTable compact striped className="edge-reference-table">
            <tbody>
              {FUNCTIONS.filter((f) => f.category === c).map((f) => (
                <tr key={f.name}>
                  <td>
                    <code>{f.signature}</code>
                    {f.extension && (
                      <Tag minimal className="edge-inline-tag">
                        扩展
                      </Tag>
                    )}
                  </td>
                  <td>{f.description}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </section>
      ))}
      <section>
        <H5>变量</H5>
        <HTMLTable compact striped className="edge-reference-table">
          <tbody>
            {VARIABLES.map((v) => (
              <tr key={v.name}>
                <td>
                  <code>$_{v.name}</code>
                </td>
                <td>{v.description}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </section>
    </div>
  );
}

export function GuideDrawer({ tab, onChange, onClose }: { tab: GuideTab | null; onChange(tab: GuideTab): void; onClose(): void }) {
  return (
    <Drawer isOpen={tab !== null} onClose={onClose} title="边缘规则帮助" icon="help" size={DrawerSize.STANDARD} className="edge-drawer">
      <div className="edge-drawer-body">
        <Tabs id="edge-guide-tabs" selectedTabId={tab ?? 'guide'} onChange={(id) => onChange(id as GuideTab)}>
          <Tab id="guide" title="使用指南" panel={<Guide />} />
          <Tab id="reference" title="语言参考" panel={<Reference />} />
        </Tabs>
      </div>
    </Drawer>
  );
}
