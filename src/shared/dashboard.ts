/** The dashboard (/dashboard/) of a main account. */
/** Certificates (and those expired in the last 7 days) and resource packages that expire within this many days are listed. */
export const DASHBOARD_CERT_DAYS = 30;
/** Unread messages listed (spec 000 §2.8: the menu shows up to 5 unread messages). */
export const DASHBOARD_MESSAGES = 5;
