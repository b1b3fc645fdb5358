/**
 * Builds the console into dist/ (served by the server under /app/). Sections are lazy chunks;
 * Monaco, visx and the Blueprint table only ever load in their own chunks.
 */
import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import { EsbuildPlugin } from 'esbuild-loader';
import type { Configuration } from 'webpack';

export default (_env: unknown, argv: { mode?: 'production' | 'development' }): Configuration => {
  const production = argv.mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    entry: { main: './src/console/index.tsx' },
    output: {
      // DIST_DIR lets several builds live side by side (the server reads the same variable)
      path: process.env.DIST_DIR ? path.resolve(process.env.DIST_DIR) : path.resolve(__dirname, 'dist'),
      publicPath: '/app/',
      filename: production ? '[name].[contenthash:8].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      clean: true,
      chunkLoadTimeout: 120_000,
    },
    devtool: production ? false : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs', '.json'],
      // the declarations bundled into the console; SCHEMAS_DIR points at another folder (as the server reads it)
      alias: { '@settings': process.env.SCHEMAS_DIR ? path.resolve(process.env.SCHEMAS_DIR) : path.resolve(__dirname, 'schemas/settings') },
    },
    module: {
      rules: [
        { test: /\.[cm]?tsx?$/, loader: 'esbuild-loader', options: { target: 'es2022', jsx: 'automatic' }, exclude: /node_modules/ },
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
        { test: /\.(woff2?|ttf|eot|svg|png)$/, type: 'asset/resource' },
      ],
    },
    optimization: {
      minimizer: [new EsbuildPlugin({ target: 'es2022', css: true })],
      splitChunks: { chunks: 'async' },
    },
    plugins: [
      new HtmlWebpackPlugin({ template: './src/console/index.html', filename: 'index.html', scriptLoading: 'defer' }),
      new MiniCssExtractPlugin({ filename: production ? '[name].[contenthash:8].css' : '[name].css', chunkFilename: production ? '[name].[contenthash:8].css' : '[name].css' }),
    ],
    performance: { hints: false },
    stats: 'errors-warnings',
  };
};
