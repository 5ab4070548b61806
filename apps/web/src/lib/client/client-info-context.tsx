import { createContext, useContext, type ReactNode } from 'react';
import { UNKNOWN_CLIENT, type ClientInfo } from '@guquan/contract/client-info';

const ClientInfoContext = createContext<ClientInfo>(UNKNOWN_CLIENT);

export function ClientInfoProvider({
  client,
  children,
}: {
  client: ClientInfo;
  children: ReactNode;
}) {
  return <ClientInfoContext value={client}>{children}</ClientInfoContext>;
}

/** The visitor's platform and in-app browser, the same on the server and after hydration. */
export function useClientInfo(): ClientInfo {
  return useContext(ClientInfoContext);
}
