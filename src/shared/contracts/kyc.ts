import { z } from 'zod';
import { dateOfBirth } from '../dates';
import { TEXT_LENGTH_MAX } from '../limits';

export const KYC_DOCUMENT_TYPES = [
  { value: 'passport', label: 'Passport' },
  { value: 'national_id', label: 'National ID' },
  { value: 'drivers_license', label: "Driver's License" },
] as const;
export const KYC_DOCUMENT_TYPE_VALUES = ['passport', 'national_id', 'drivers_license'] as const;
export type KycDocumentType = (typeof KYC_DOCUMENT_TYPE_VALUES)[number];

export const KYC_REQUIRED_MESSAGE = 'All fields are required.';
export const KYC_SUCCESS_MESSAGE = 'KYC submitted successfully!';
export const KYC_FAILURE_MESSAGE = 'An error occurred during KYC submission.';

/** Multipart field names of POST /api/user/verification (spec section 3). */
export const KYC_FILE_FIELDS = ['passportImageFile', 'documentFile', 'proofOfAddressFile'] as const;
export const KYC_TEXT_FIELDS = ['documentType', 'dateOfBirth'] as const;

export const ZKycTextFields = z.object({
  documentType: z.enum(KYC_DOCUMENT_TYPE_VALUES, { message: "Please choose a document type: Passport, National ID or Driver's License" }),
  dateOfBirth: dateOfBirth({ required: KYC_REQUIRED_MESSAGE, underage: 'You must be at least 18 years old' }),
});

export const ZKycRejectRequest = z.object({
  reason: z
    .string({ message: 'A reason is required' })
    .trim()
    .min(3, 'A reason is required')
    .max(TEXT_LENGTH_MAX, `The reason must be at most ${TEXT_LENGTH_MAX} characters`),
});

export const ZKycQueueQuery = z.object({
  status: z.enum(['pending', 'verified', 'failed', 'all']).default('pending'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export interface KycFileDto {
  id: string;
  url: string;
  mediaType: string;
}

export interface KycSubmissionDto {
  id: string;
  userId: string;
  customer: { firstName: string; lastName: string; email: string };
  documentType: KycDocumentType;
  dateOfBirth: string;
  status: 'pending' | 'verified' | 'failed';
  reason: string | null;
  passportImage: KycFileDto;
  document: KycFileDto;
  proofOfAddress: KycFileDto;
  reviewedAt: string | null;
  createdAt: string;
}

export const kycFileUrl = (fileId: string) => `/api/user/verification/files/${fileId}`;
