/** The current user as the server sends it and the console keeps it (spec 000 §3 "User"). */
export interface CurrentUser {
  user_id: number;
  username: string;
  /** masked: digits 4 to 7 hidden */
  mobile: string | null;
  email: string | null;
  status: 'normal' | 'blocked' | 'frozen';
  verify_status: 'yes' | 'not';
  two_step: boolean;
  /** present for sub-accounts */
  child?: { permissions: string[] };
  overseas_acceleration_switch: boolean;
  custom_prohibit_configuration: boolean;
  /** business flag: the smart compression panel is shown (spec 002 §2); a sub-account has its main account's */
  smart_compression: boolean;
  account_status: string;
}

export interface Usage {
  money: number;
  actual_charge: number;
  gift: number;
  resource_flow_remain: number;
  pcdn_open: boolean;
  mingmou: boolean;
}

export { maskMobile } from './mask';

/** Paths after which a sign-in goes to the dashboard instead (spec 000 §2.2). */
export const NO_RETURN_PATHS = ['/login/', '/register/', '/register/success/', '/lostpass/'];
/** Paths a visitor who is not signed in may stay on (spec 000 §2.1). */
export const PUBLIC_PATH_PREFIXES = ['/connect/', '/register', '/lostpass', '/authorizationlogin', '/authorizationProtocol/'];
