/** Ports the operator's Services and Ingresses expose (label and annotation keys live in `model/well-known`). */
export const FRONTEND_HTTP_PORT = 8000;
export const SYSTEM_PORT = 9090;
