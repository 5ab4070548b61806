import { useId, type ReactNode } from 'react';
import { ModalDialog, type ModalDialogProps } from './modal-dialog';

export interface LabelledDialogProps extends Omit<
  ModalDialogProps,
  'labelledBy' | 'describedBy' | 'children'
> {
  /** The dialog's name: drawn as its heading, wherever `children` places it. */
  title: ReactNode;
  titleClassName?: string;
  /** What the dialog is, given its heading and the id its description must carry. */
  children: (parts: { heading: ReactNode; descriptionId: string }) => ReactNode;
}

/**
 * The modal dialog named by its heading and described by one element of its own (a sheet's body,
 * a poster's hint): the ids that tie them to the dialog are made here, once for every dialog.
 */
export function LabelledDialog({ title, titleClassName, children, ...props }: LabelledDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const heading = (
    <h2 id={titleId} className={titleClassName}>
      {title}
    </h2>
  );
  return (
    <ModalDialog {...props} labelledBy={titleId} describedBy={descriptionId}>
      {children({ heading, descriptionId })}
    </ModalDialog>
  );
}
