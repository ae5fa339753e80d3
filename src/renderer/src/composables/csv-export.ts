import { ref } from 'vue'
import { useToastsStore } from '../stores/toasts'
import { downloadFile } from './download-file'

/** What one export made: the file, and what the toast says once it is saved. */
export interface MadeCsv {
  fileName: string
  text: string
  saved: string
}

/**
 * One CSV export's run, as every list's export button does it: progress said while it
 * reads (`say`), the file saved with the shell's save dialog or download, then a toast
 * where the eye is; a failure named in plain words after `failure`. `progress` is
 * non-empty while it runs (the button is disabled meanwhile).
 */
export function useCsvExport(failure: string) {
  const toasts = useToastsStore()
  const progress = ref('')
  async function run(make: (say: (text: string) => void) => Promise<MadeCsv>) {
    progress.value = 'Reading…'
    try {
      const out = await make((text) => (progress.value = text))
      downloadFile(out.fileName, out.text, 'text/csv')
      toasts.show(out.saved)
    } catch (err) {
      toasts.fail(`${failure}: ${(err as Error).message}`)
    } finally {
      progress.value = ''
    }
  }
  return { progress, run }
}
