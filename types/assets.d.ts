declare module "*.css";
declare module "*.svg" { const url: string; export default url; }
declare const __webpack_public_path__: string;
