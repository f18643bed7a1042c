import { z } from 'zod';

// The part of a pact the plan reads, so that it rests on a well-formed pact (Pact reads the
// file again for the replay) and a malformed one gets a one-line reason.
const participantSchema = z.object({ name: z.string().min(1, 'must name the participant') });

const providerStateSchema = z.object({
  name: z.string(),
  params: z.record(z.string(), z.unknown()).nullish(),
});

/** V4 writes header and query values as lists; V3 headers are single strings. */
const headersSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
const querySchema = z.record(z.string(), z.union([z.string(), z.array(z.string().nullable())]));

const requestSchema = z.object({
  method: z.string().min(1, 'must be an HTTP method'),
  path: z.string().startsWith('/', 'must start with /'),
  query: z.union([querySchema, z.string()]).nullish(),
  headers: headersSchema.nullish(),
  body: z.unknown().optional(),
  generators: z.record(z.string(), z.unknown()).nullish(),
});

const responseSchema = z.object({
  status: z.number().int().min(100).max(599),
  matchingRules: z.record(z.string(), z.unknown()).nullish(),
});

export const interactionSchema = z.object({
  type: z.string().optional(),
  key: z.string().optional(),
  description: z.string().min(1, 'must describe the interaction'),
  providerState: z.string().optional(),
  providerStates: z.array(providerStateSchema).nullish(),
  request: requestSchema,
  response: responseSchema,
  pending: z.boolean().optional(),
});

export const pactSchema = z.object({
  consumer: participantSchema,
  provider: participantSchema,
  interactions: z.array(z.unknown()),
  metadata: z
    .object({
      pactSpecification: z.object({ version: z.string() }).optional(),
      'pact-specification': z.object({ version: z.string() }).optional(),
    })
    .optional(),
});

export type RawInteraction = z.infer<typeof interactionSchema>;
