/**
 * The platform's commands (what the provider's staff do that no customer page does): change a price
 * configuration, review a rebate or a real-name verification, answer a work order, read event counts.
 * Each section declares its commands in its own file and lists them in ./commands.ts, one line each.
 *
 *   npm run platform -- help
 *   npm run platform -- <command> [--name value …]
 *
 * The database is the server's (DATA_DIR, or DATABASE_URL when set); stop a PGlite server first,
 * since an embedded database has one user at a time (the command refuses a folder in use).
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../../scripts/require-node.cjs';
import { configFromEnv } from '../config';
import { openDatabase, type DB } from '../db';
import { DataDirInUseError } from '../db/lock';
import { PLATFORM_COMMANDS } from './commands';
import { parseArgs, type PlatformCommand } from './command';

async function main(argv: string[]) {
  const [name, ...rest] = argv;
  const command: PlatformCommand | undefined = PLATFORM_COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.log('平台命令（npm run platform -- <命令> [--参数 值 …]）：\n');
    for (const c of PLATFORM_COMMANDS) console.log(`  ${c.name.padEnd(22)} ${c.summary}\n  ${' '.repeat(22)} ${c.usage}\n`);
    process.exitCode = name && name !== 'help' ? 1 : 0;
    return;
  }
  const config = configFromEnv();
  let db: DB;
  try {
    db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (e) {
    // the server holds the PGlite folder (src/server/db/lock.ts): say so, no stack
    console.error(e instanceof DataDirInUseError ? e.message : e);
    process.exitCode = 1;
    return;
  }
  try {
    const out = await command.run(db, parseArgs(rest));
    if (out !== undefined) console.log(typeof out === 'string' ? out : JSON.stringify(out, null, 2));
  } catch (e) {
    console.error((e as Error).message);
    process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}

void main(process.argv.slice(2));
