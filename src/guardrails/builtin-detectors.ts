// Detectors for the builtin content filters. Each is a candidate regular expression plus an optional
// check that the candidate really is what it looks like (Luhn for card numbers, octet ranges for IPs).
// The person-name and address detectors are heuristics, documented beside them; they favour precision
// (few false positives) over recall.
import { isIP } from 'node:net'
import type { BuiltinFilterSlug } from '../domain/guardrail-record.ts'
import { isLuhnValid } from './luhn.ts'

export interface TextSpan {
  readonly start: number
  readonly end: number
}

interface Detector {
  readonly pattern: RegExp
  readonly isValid?: (candidate: string) => boolean
}

const streetSuffixes =
  'Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Ter|Parkway|Pkwy|Highway|Hwy|Square|Sq|Circle|Cir'

const detectors: Readonly<Record<BuiltinFilterSlug, Detector>> = {
  email: { pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g },
  // North American numbers with separators ("(415) 555-0132", "415-555-0132", "+1 415 555 0132") and
  // international numbers written with a leading "+" (8 to 15 digits, E.164).
  phone: {
    pattern:
      /(?<![\w+])(?:(?:\+?1[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}|\+\d{1,3}(?:[\s.-]?\(?\d{1,4}\)?){2,5})(?![\w])/g,
    isValid: (candidate) => {
      const digits = candidate.replace(/\D/g, '').length
      return digits >= 8 && digits <= 15
    },
  },
  // US social security numbers: AAA-GG-SSSS (dashes or spaces), excluding never-issued areas and groups.
  ssn: { pattern: /(?<![\w-])(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}(?![\w-])/g },
  // 13 to 19 digits, optionally grouped by spaces or dashes, passing the Luhn check.
  'credit-card': {
    pattern: /(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])/g,
    isValid: (candidate) => {
      const digits = candidate.replace(/[ -]/g, '')
      return digits.length >= 13 && digits.length <= 19 && isLuhnValid(digits)
    },
  },
  // IPv4 dotted quads (each octet 0..255) and IPv6 addresses (full or compressed).
  'ip-address': {
    pattern: /(?<![\w.:])(?:\d{1,3}(?:\.\d{1,3}){3}|(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4})(?![\w.:])/g,
    isValid: (candidate) => isIP(candidate) !== 0,
  },
  // Common credential shapes: OpenAI/Anthropic/OpenRouter-style "sk-" keys, AWS access key ids, GitHub,
  // Slack, Google API and Stripe keys, JSON web tokens and PEM private keys.
  secrets: {
    pattern: new RegExp(
      [
        String.raw`\bsk-[A-Za-z0-9_-]{20,}`,
        String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
        String.raw`\bgh[pousr]_[A-Za-z0-9]{36,}\b`,
        String.raw`\bgithub_pat_[A-Za-z0-9_]{22,}`,
        String.raw`\bxox[abprs]-[A-Za-z0-9-]{10,}`,
        String.raw`\bAIza[0-9A-Za-z_-]{35}`,
        String.raw`\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{24,}`,
        String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
        String.raw`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`,
      ].join('|'),
      'g',
    ),
  },
  // Heuristic: one to three capitalised words that follow an honorific ("Dr. Jane Doe" -> "Dr. [..]")
  // or an introduction cue ("my name is John Smith", "Name: Ada Lovelace", "Regards, Ann"). Bare
  // capitalised words elsewhere are not treated as names.
  'person-name': {
    pattern:
      /(?<=\b(?:(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sir|Madam)\.?|[Mm]y name is|[Nn]ame:|[Cc]all me|[Rr]egards,|[Ss]incerely,)\s+)[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+){0,2}/g,
  },
  // Heuristic: a street address is a house number, one to four capitalised words and a street suffix
  // ("221B Baker Street", "1600 Pennsylvania Ave NW"), optionally followed by ", City, ST 12345"; also
  // post-office boxes ("P.O. Box 123").
  address: {
    pattern: new RegExp(
      String.raw`\b\d{1,6}[A-Za-z]?\s+(?:[A-Z][A-Za-z'-]*\s+){1,4}(?:${streetSuffixes})\b(?:\s+(?:N|S|E|W|NE|NW|SE|SW)\b)?` +
        String.raw`(?:,\s*[A-Z][A-Za-z ]+,\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?)?` +
        String.raw`|\bP\.?\s?O\.?\s+Box\s+\d+`,
      'g',
    ),
  },
  // Phrases typical of attempts to override the system prompt or exfiltrate it.
  'regex-prompt-injection': {
    pattern: new RegExp(
      [
        String.raw`\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|system)\s+(?:instructions|prompts?|rules|directions|messages)`,
        String.raw`\b(?:reveal|print|show|repeat|output)\s+(?:me\s+)?(?:your|the)\s+(?:system|hidden|initial)\s+(?:prompt|instructions)`,
        String.raw`\byou\s+are\s+now\s+(?:DAN|in\s+developer\s+mode|jailbroken|unrestricted)`,
        String.raw`\b(?:enable|enter|activate)\s+(?:developer|god|jailbreak)\s+mode`,
        String.raw`\bact\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|uncensored)\b`,
        String.raw`\bpretend\s+(?:that\s+)?you\s+(?:have|are\s+under)\s+no\s+(?:rules|restrictions|guidelines)`,
      ].join('|'),
      'gi',
    ),
  },
}

/** Every span of `text` the builtin detects, in order, non-overlapping. */
export function detectBuiltin(slug: BuiltinFilterSlug, text: string): TextSpan[] {
  const detector = detectors[slug]
  return findSpans(detector.pattern, text, detector.isValid)
}

/** Every non-empty match of a global regular expression, optionally filtered by a check. */
function findSpans(pattern: RegExp, text: string, isValid?: (candidate: string) => boolean): TextSpan[] {
  const spans: TextSpan[] = []
  for (const match of text.matchAll(pattern)) {
    if (match[0] === '' || (isValid !== undefined && !isValid(match[0]))) continue
    spans.push({ start: match.index, end: match.index + match[0].length })
  }
  return spans
}
