export * from './time';
export * from './constants';
export * from './units';
export * from './percentile';
export * from './params';
export * from './series';
