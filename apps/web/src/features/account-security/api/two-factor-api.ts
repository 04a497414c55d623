import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import {
  confirmTotpSetup,
  disableTwoFactor,
  fetchTwoFactorStatus,
  qrCodeDataUrl,
  startTotpSetup,
  type TwoFactorStatusData,
} from '../../../lib/two-factor.ts';

export const twoFactorQueryKeys = { status: ['two-factor', 'status'] as const };

export function useTwoFactorStatus() {
  return useQuery({ queryKey: twoFactorQueryKeys.status, queryFn: fetchTwoFactorStatus });
}

/** A new key, with its QR code drawn (the QR library loads with the first set-up). */
export function useStartTotpSetup() {
  return useMutation({
    mutationFn: async () => {
      const setup = await startTotpSetup();
      return { ...setup, qr: await qrCodeDataUrl(setup.otpauthUri) };
    },
  });
}

export function useConfirmTotpSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmTotpSetup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorQueryKeys.status }),
  });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: (status: TwoFactorStatusData) => {
      queryClient.setQueryData(twoFactorQueryKeys.status, status);
    },
  });
}
