import { useQueryClient } from '@tanstack/react-query';
import {
  getListClientVersionsQueryKey,
  getListVersionsQueryKey,
  useListClientVersions,
  useListVersions,
} from '../../api/generated/endpoints/downloads/downloads';
import type { ApiError } from '../../api/http-client';
import type { ClientVersionDto, ClientVersionListResponseDto } from '../../api/generated/model';

export interface ClientVersionList {
  /** The versions as the server orders them (latest first, then newest release). */
  versions: ClientVersionDto[];
  loading: boolean;
  /** Set only when the client list and its fallback both failed. */
  error: ApiError | null;
  retry: () => void;
  /** Shows one more download of a file at once (the server counts it when the browser fetches the file). */
  countDownload: (fileId: number) => void;
}

/**
 * The versions a signed-in client may download, for Available Downloads and the product choices alike (one request):
 * GET /api/client/versions, falling back to GET /api/versions when it fails (spec section 7).
 */
export function useClientVersionList(): ClientVersionList {
  const queryClient = useQueryClient();
  const primary = useListClientVersions();
  const fallback = useListVersions({ query: { enabled: !!primary.error } });
  const usingFallback = !!primary.error;
  const active = usingFallback ? fallback : primary;
  return {
    versions: active.data?.data ?? [],
    loading: primary.isLoading || (usingFallback && fallback.isPending && !fallback.error),
    error: usingFallback && fallback.error ? (primary.error as ApiError) : null,
    retry: () => {
      void primary.refetch();
      if (usingFallback) void fallback.refetch();
    },
    countDownload: (fileId) =>
      queryClient.setQueryData<ClientVersionListResponseDto>(
        usingFallback ? getListVersionsQueryKey() : getListClientVersionsQueryKey(),
        (current) =>
          current && {
            ...current,
            data: current.data.map((version) => ({
              ...version,
              distribution_files: version.distribution_files.map((file) =>
                file.id === fileId ? { ...file, download_count: file.download_count + 1 } : file,
              ),
            })),
          },
      ),
  };
}
