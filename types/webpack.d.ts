interface WebpackRequireContext {
  keys(): string[];
  <T = any>(id: string): T;
}
declare namespace NodeJS {
  interface Require {
    context(directory: string, useSubdirectories: boolean, regExp: RegExp, mode?: string): WebpackRequireContext;
  }
}
