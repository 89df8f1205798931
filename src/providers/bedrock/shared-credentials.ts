// AWS credentials of a named profile, resolved as the AWS SDKs resolve them (`fromIni`): the shared
// credentials file (`~/.aws/credentials` or `credentials_file`) and config file, including profiles that
// assume a role, run a `credential_process` or use SSO. Credentials are kept until five minutes before
// they expire (static ones for good); a failed resolution is retried on the next request.
import { fromIni } from '@aws-sdk/credential-provider-ini'

export interface AwsCredentials {
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly sessionToken?: string
  readonly expiration?: Date
}

const refreshBeforeMs = 5 * 60_000

export function profileCredentials(
  profile: string,
  file: string | undefined,
  now: () => number,
): () => Promise<AwsCredentials> {
  const resolve = fromIni({ profile, ...(file === undefined ? {} : { filepath: file }) })
  let current: Promise<AwsCredentials> | undefined
  return async () => {
    current ??= resolve()
    let credentials: AwsCredentials
    try {
      credentials = await current
    } catch (error) {
      current = undefined
      throw error
    }
    if (credentials.expiration === undefined || credentials.expiration.getTime() - refreshBeforeMs > now())
      return credentials
    current = undefined
    return (current = resolve())
  }
}
