import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import {
  getListClientVersionsQueryKey,
  getListVersionsQueryKey,
  useListClientVersions,
  useListVersions,
} from '../../api/generated/endpoints/downloads/downloads';
import type { ApiError } from '../../api/http-client';
import type { ClientVersionDto, ClientVersionListResponseDto, PageMetaDto } from '../../api/generated/model';

/** Versions per page of Available Downloads (each comes with all its files). */
export const DOWNLOADS_PAGE_SIZE = 10;

export interface ClientVersionPage {
  /** The page's versions as the server orders them (latest first, then newest release). */
  versions: ClientVersionDto[];
  /** Where the page is (undefined until the first answer). */
  meta: PageMetaDto | undefined;
  loading: boolean;
  /** Set only when the client list and its fallback both failed. */
  error: ApiError | null;
  retry: () => void;
  /** Shows one more download of a file at once (the server counts it when the browser fetches the file). */
  countDownload: (fileId: number) => void;
}

/**
 * One page of the versions a signed-in client may download: GET /api/client/versions, falling back to
 * GET /api/versions when it fails (spec section 7). The previous page stays shown while the next one loads.
 */
export function useClientVersionPage(page: number): ClientVersionPage {
  const queryClient = useQueryClient();
  const params = { page, limit: DOWNLOADS_PAGE_SIZE };
  const primary = useListClientVersions(params, { query: { placeholderData: keepPreviousData } });
  const fallback = useListVersions(params, { query: { enabled: !!primary.error, placeholderData: keepPreviousData } });
  const usingFallback = !!primary.error;
  const active = usingFallback ? fallback : primary;
  return {
    versions: active.data?.data ?? [],
    meta: active.data?.meta,
    loading: primary.isLoading || (usingFallback && fallback.isPending && !fallback.error),
    error: usingFallback && fallback.error ? (primary.error as ApiError) : null,
    retry: () => {
      void primary.refetch();
      if (usingFallback) void fallback.refetch();
    },
    countDownload: (fileId) =>
      queryClient.setQueryData<ClientVersionListResponseDto>(
        usingFallback ? getListVersionsQueryKey(params) : getListClientVersionsQueryKey(params),
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
