/** Every platform command, one line per section (see ./cli.ts). */
import type { PlatformCommand } from './command';
import { eventCommands } from '../events/commands';
import { accountCommands } from '../accounts/commands';
import { workOrderCommands } from '../workorders/commands';
import { rebateCommands } from '../billing/rebates/review';
import { billingCommands } from '../billing/commands';
import { externalCommands } from '../external/commands';
import { consumptionCommands } from '../billing/consumption/commands';
import { edgeCommands } from '../edge/commands';
import { standingCommands } from '../accounts/standing';

export const PLATFORM_COMMANDS: PlatformCommand[] = [
  ...eventCommands,
  ...accountCommands,
  ...standingCommands,
  ...workOrderCommands,
  ...rebateCommands,
  ...billingCommands,
  ...externalCommands,
  ...consumptionCommands,
  ...edgeCommands,
];
