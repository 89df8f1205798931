// A real S3-compatible server (s3rver) on a free port with one empty bucket `traces`, for the S3
// destination tests: its endpoint, and close() that stops it and deletes its files.
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'

export interface S3Bucket {
  readonly endpoint: string
  close(): Promise<void>
}

export async function startS3Bucket(): Promise<S3Bucket> {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-s3-'))
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: 'traces', configs: [] }],
  })
  const address = (await server.run()) as unknown as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    async close() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
