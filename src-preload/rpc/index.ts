export * from './binaryFrame';
export * from './creditWindow';
export * from './disposable';
export * from './frames';
export * from './memoryTransport';
export * from './rpcClient';
export * from './rpcServer';
export * from './transport';
