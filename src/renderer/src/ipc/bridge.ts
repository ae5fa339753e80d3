import { createApi, type ConveneApi } from '../../../shared/ipc/api'
import { loopbackNotices, loopbackTransport, takeLaunchSecret } from './loopback-transport'

/**
 * The renderer's only way to the main process. In Electron the preload exposes it; in
 * the loopback shell it is built here from the same contract.
 */
export function resolveApi(): ConveneApi {
  if (window.convene) return window.convene
  const secret = takeLaunchSecret()
  return createApi(loopbackTransport(secret), loopbackNotices(secret))
}
