/**
 * The edge's platform commands (docs/edge.md "More nodes"): give a node its key, list the nodes and their applies,
 * and load the edge with synthetic services (edge-seed, ../seed/scale.ts).
 */
import { sql } from 'kysely';
import type { PlatformCommand } from '../platform/command';
import { required } from '../platform/command';
import { currentVersion, registerNode } from './repo';
import { configFromEnv } from '../config';
import { removeScale, seedScale } from '../seed/scale';

export const edgeCommands: PlatformCommand[] = [
  {
    name: 'edge-key',
    summary: '为边缘节点生成密钥（同名节点的旧密钥作废）；只保存密钥的 SHA-256',
    usage: '--name <节点名>',
    async run(db, args) {
      const name = required(args, 'name');
      if (!/^[A-Za-z0-9_.-]{1,100}$/.test(name)) throw new Error('节点名只能包含字母、数字、点、下划线和连字符，最长 100 个字符');
      const key = await registerNode(db, name);
      return `节点 ${name} 的密钥（只显示这一次）：\n${key}\n启动该节点：EDGE_NODE_KEY=${key} EDGE_NODE_NAME=${name} EDGE_CONTROL_URL=http://<控制面>:8080 node --import tsx src/edge/main.ts`;
    },
  },
  {
    name: 'edge-seed',
    summary: '在账号下生成 N 个规模测试 CDN 服务（域名 s<i>.scale.example，源站为演示源站，部分带配置与边缘规则）；可重复执行；--remove 删除它们',
    usage: '--account <账号> --services <N> | --account <账号> --remove',
    async run(db, args) {
      const account = required(args, 'account');
      if (args.remove === 'true') {
        const r = await removeScale(db, account);
        return `已删除账号 ${account} 的 ${r.removed} 个规模测试服务（${r.ms} ms）`;
      }
      const n = Number(required(args, 'services'));
      const r = await seedScale(db, { account, services: n, origin: configFromEnv().edge.demoOrigin });
      return `账号 ${account} 现有 ${r.services} 个规模测试服务：新增 ${r.added}，删除 ${r.removed}（${r.ms} ms）`;
    },
  },
  {
    name: 'edge-nodes',
    summary: '列出边缘节点：最近一次联系、运行的配置版本、最近的应用记录',
    usage: '',
    async run(db) {
      const nodes = await db.selectFrom('edge_nodes').select(['id', 'name', 'last_seen_at', sql<string | null>`applied_version::text`.as('applied_version'), 'applied_at', 'ok', 'message']).orderBy('name').execute();
      const applies = await db
        .selectFrom('edge_applies')
        .select(['node_id', sql<string>`version::text`.as('version'), 'ok', 'refused', 'timings', 'created_at', 'message'])
        .orderBy('id', 'desc')
        .limit(20)
        .execute();
      return { version: await currentVersion(db), nodes, applies: applies.map((a) => ({ ...a, timings: JSON.parse(a.timings) })) };
    },
  },
];
