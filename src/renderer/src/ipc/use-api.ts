import { inject, type InjectionKey } from 'vue'
import type { ConveneApi } from '../../../shared/ipc/api'

export const API_KEY: InjectionKey<ConveneApi> = Symbol('convene-api')

/** The contract API provided at app start (tests may provide their own). */
export function useApi(): ConveneApi {
  const api = inject(API_KEY)
  if (!api) throw new Error('The Convene API was not provided to this component tree.')
  return api
}
