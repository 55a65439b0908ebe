// Public surface of the service client.

export { createClient, DEFAULT_CONCURRENCY, type AttemptEvent, type BrandRef, type ClientOptions, type Credentials, type NetFailure, type RcsClient } from './client.js';
export { ApiTransportError, isServiceError, OutcomeUnknownError, RcsApiError, ResponseShapeError, type HttpMethod } from './errors.js';
export { isLoopbackHost } from './endpoint.js';
export type { AgencyFileRequest, AgencyFilesApi } from './agency-files.js';
export type { AutoRepliesApi } from './auto-replies.js';
export type { BrandModification, BrandsApi } from './brands.js';
export type { LayoutComponentsApi, MessagebasesApi } from './catalogue.js';
export type { ChatbotsApi } from './chatbots.js';
export type { LogoRequest, LogosApi } from './logos.js';
export type { MenusApi } from './menus.js';
export type { TemplatesApi } from './templates.js';
export type { UploadFile } from './resource.js';
export type { RetryOptions } from './retry.js';
export type { Timeouts } from './transport.js';
export type * from './types.js';
