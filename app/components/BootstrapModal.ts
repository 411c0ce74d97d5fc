// React Bootstrap's modal as a module of its own, so that Modal.tsx can load it when a dialog first opens.
export { default } from 'react-bootstrap/Modal';
