import { z } from 'zod';
import { dateOfBirth } from '../dates';
import { TEXT_LENGTH_MAX } from '../limits';
import { VERIFICATION_STATUSES } from '../reference';
import { envelope, MULTI_LINE_TEXT, controlCharactersMessage, paginated, ZPage, ZTimestamp } from './common';

export const KYC_DOCUMENT_TYPES = [
  { value: 'passport', label: 'Passport' },
  { value: 'national_id', label: 'National ID' },
  { value: 'drivers_license', label: "Driver's License" },
] as const;
export const KYC_DOCUMENT_TYPE_VALUES = ['passport', 'national_id', 'drivers_license'] as const;
export type KycDocumentType = (typeof KYC_DOCUMENT_TYPE_VALUES)[number];
export const KYC_SUBMISSION_STATUSES = ['pending', 'verified', 'failed'] as const;

export const KYC_REQUIRED_MESSAGE = 'All fields are required.';
export const KYC_SUCCESS_MESSAGE = 'KYC submitted successfully!';
export const KYC_FAILURE_MESSAGE = 'An error occurred during KYC submission.';

/** The file fields of POST /api/user/verification (spec section 3); its text fields are ZKycTextFields. */
export const KYC_FILE_FIELDS = ['passportImageFile', 'documentFile', 'proofOfAddressFile'] as const;

export const ZKycTextFields = z.object({
  documentType: z
    .enum(KYC_DOCUMENT_TYPE_VALUES, { message: "Please choose a document type: Passport, National ID or Driver's License" })
    .describe('What documentFile is.'),
  dateOfBirth: dateOfBirth({ required: KYC_REQUIRED_MESSAGE, underage: 'You must be at least 18 years old' }).describe(
    'YYYY-MM-DD; the customer must be 18 to 120 years old.',
  ),
});
export type KycTextFields = z.infer<typeof ZKycTextFields>;

/**
 * The multipart form of POST /api/user/verification: three files and two text fields, all
 * required. Files are checked by their bytes on the server (images re-encoded, PDFs without
 * active content), whatever their name or declared type.
 */
export const KYC_FORM = {
  files: {
    passportImageFile: 'The passport photo page: a JPEG, PNG or WebP image',
    documentFile: 'The identity document: a JPEG, PNG or WebP image, or a PDF',
    proofOfAddressFile: 'A proof of address: a JPEG, PNG or WebP image, or a PDF',
  } satisfies Record<(typeof KYC_FILE_FIELDS)[number], string>,
  fields: ZKycTextFields,
  missing: { message: KYC_REQUIRED_MESSAGE, field: 'Required' },
};

export const ZKycRejectRequest = z.object({
  reason: z
    .string({ message: 'A reason is required' })
    .trim()
    .min(1, 'A reason is required')
    .min(3, 'The reason must be at least 3 characters')
    .max(TEXT_LENGTH_MAX, `The reason must be at most ${TEXT_LENGTH_MAX} characters`)
    .regex(MULTI_LINE_TEXT, controlCharactersMessage('The reason'))
    .describe('Why the documents are refused: emailed to the customer, who may send new ones.'),
});

export const ZKycQueueQuery = ZPage.extend({
  status: z
    .enum([...KYC_SUBMISSION_STATUSES, 'all'])
    .default('pending')
    .describe('Only submissions with this status (pending: oldest first); all: every one, newest first.'),
});

export const ZKycFile = z.object({
  id: z.string(),
  url: z.string().describe('Where to download it (its owner and staff).'),
  mediaType: z.string().describe('image/jpeg, image/png or application/pdf.'),
});
export type KycFileDto = z.infer<typeof ZKycFile>;

export const ZKycSubmission = z.object({
  id: z.string(),
  userId: z.string(),
  customer: z.object({ firstName: z.string(), lastName: z.string(), email: z.string() }),
  documentType: z.enum(KYC_DOCUMENT_TYPE_VALUES),
  dateOfBirth: z.string().describe('YYYY-MM-DD.'),
  status: z.enum(KYC_SUBMISSION_STATUSES).describe('pending review, verified, or failed (refused).'),
  reason: z.string().nullable().describe("A refusal's reason; null otherwise."),
  passportImage: ZKycFile,
  document: ZKycFile,
  proofOfAddress: ZKycFile,
  reviewedAt: ZTimestamp.nullable(),
  createdAt: ZTimestamp,
});
export type KycSubmissionDto = z.infer<typeof ZKycSubmission>;

export const ZKycQueue = envelope(paginated(ZKycSubmission));
export const ZCustomerKyc = envelope(z.object({ verificationStatus: z.enum(VERIFICATION_STATUSES), submissions: z.array(ZKycSubmission) }));
export const ZKycDecisionAnswer = envelope(z.object({ userId: z.string(), verificationStatus: z.enum(VERIFICATION_STATUSES) }));

/** The types a stored KYC file can have (images are re-encoded as JPEG or PNG). */
export const KYC_FILE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;

export const kycFileUrl = (fileId: string) => `/api/user/verification/files/${fileId}`;
