import { lazy, Suspense, useState, type ComponentProps } from 'react';
import ModalBody from 'react-bootstrap/ModalBody';
import ModalFooter from 'react-bootstrap/ModalFooter';
import ModalHeader from 'react-bootstrap/ModalHeader';
import ModalTitle from 'react-bootstrap/ModalTitle';
import type BootstrapModal from 'react-bootstrap/Modal';

const LoadedModal = lazy(() => import('./BootstrapModal.ts'));

/**
 * React Bootstrap's Modal (same props and parts: Modal.Header, Modal.Title, Modal.Body, Modal.Footer) that loads
 * the dialog code the first time `show` is true, not with the page: most pages never open their dialogs, and the
 * budget counts what a page loads before it is usable (docs/decisions/024). Once loaded it stays mounted, so
 * closing fades out as before.
 */
function LazyModal(props: ComponentProps<typeof BootstrapModal>) {
  const [wanted, setWanted] = useState(Boolean(props.show));
  if (props.show && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <LoadedModal {...props} />
    </Suspense>
  );
}

export const Modal = Object.assign(LazyModal, { Header: ModalHeader, Title: ModalTitle, Body: ModalBody, Footer: ModalFooter });
