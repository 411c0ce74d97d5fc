import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { Alert } from '../../components/Alert.tsx';
import { MapPin } from 'lucide-react';
import { useTranslation } from '../../lib/i18n.ts';
import { api } from '../../lib/api.ts';
import { currentPosition, readGeoPermission, storedGeocode, storeGeocode, type Geocode, type GeoPermission } from './geolocation.ts';

/**
 * "Near me": the browser's position, turned into a place by /api/geocode.php, sets the country and region
 * of the search. The result is stored (false after a failure), so the page remembers it. A member's "near me" also
 * shares their location (PUT /api/location.php, the nearest town is kept), so cards show distances and the distance
 * filter is offered; `sharing` says they share one, and they can stop.
 */
export function LocationOptions({ onPlace, member = false, sharing = false, onStopSharing }: {
  onPlace: (place: Geocode) => void; member?: boolean; sharing?: boolean; onStopSharing?: () => void;
}) {
  const { t } = useTranslation();
  const [permission, setPermission] = useState<GeoPermission>('unknown');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [place, setPlace] = useState<Geocode | null>(null);

  useEffect(() => {
    let status: PermissionStatus | undefined;
    const update = () => status && setPermission(status.state);
    void readGeoPermission().then((r) => {
      setPermission(r.state);
      status = r.status;
      status?.addEventListener('change', update);
    });
    const stored = storedGeocode();
    if (stored) setPlace(stored);
    return () => status?.removeEventListener('change', update);
  }, []);

  const locate = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const position = await currentPosition();
      const { geocode } = await api<{ geocode: Geocode | null }>(
        `/api/geocode.php?lat=${position.coords.latitude.toFixed(5)}&lon=${position.coords.longitude.toFixed(5)}`, { retries: 1 });
      if (!geocode) throw new Error('no place');
      if (member) await api('/api/location.php', { method: 'PUT', body: { lat: Number(position.coords.latitude.toFixed(5)), lon: Number(position.coords.longitude.toFixed(5)) }, retries: 1 });
      storeGeocode(geocode);
      setPlace(geocode);
      onPlace(geocode);
    } catch {
      storeGeocode(false);
      setFailed(true);
      void readGeoPermission().then((r) => setPermission(r.state));
    } finally {
      setBusy(false);
    }
  };

  const stopSharing = async () => {
    setBusy(true);
    try {
      await api('/api/location.php', { method: 'DELETE', retries: 1 });
      onStopSharing?.();
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  if (permission === 'unsupported' && !sharing) return null;
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mt-3" data-testid="location-options" data-permission={permission}>
      {permission === 'unsupported' ? null : permission === 'denied' ? (
        <span className="text-muted small" data-testid="location-denied">{t('member_search.denied')}</span>
      ) : (
        <Button variant="outline-secondary" size="sm" onClick={() => void locate()} disabled={busy} data-testid="near-me">
          {busy ? <Spinner animation="border" size="sm" /> : <MapPin size={14} aria-hidden="true" className="align-text-bottom" />} {t('member_search.near_me')}
        </Button>
      )}
      {place && !failed && (
        <span className="small text-muted" data-testid="location-place">
          {t('member_search.your_place', { place: [place.city, place.region].filter(Boolean).join(', ') })}
        </span>
      )}
      {member && !sharing && permission !== 'denied' && permission !== 'unsupported' && (
        <span className="small text-muted w-100" data-testid="location-share-note">{t('member_search.share_note')}</span>
      )}
      {sharing && (
        <Button variant="link" size="sm" className="p-0" onClick={() => void stopSharing()} disabled={busy} data-testid="stop-sharing-location">
          {t('member_search.stop_sharing_location')}
        </Button>
      )}
      {failed && <Alert variant="warning" className="py-1 px-2 mb-0 small" data-testid="location-failed">{t('member_search.failed')}</Alert>}
    </div>
  );
}
