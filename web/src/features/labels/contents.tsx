import type { Schemas } from '../../api/client';
import { recordHref } from '../../ui/links';
import { strings } from './strings';

/** What a container's label names: its items, each linking to its record where it has one. */
export function ContainerContents(props: { container: Schemas['LabelResolution'] }) {
  const { container } = props;
  return (
    <>
      <p>{strings.scan.container(container.display_name, container.contents?.length ?? 0)}</p>
      <ul>
        {(container.contents ?? []).map((item) => (
          <li key={item.item_id}>
            {item.record_type === null || item.record_id === null ? (
              item.display_name
            ) : (
              <a href={recordHref[item.record_type](item.record_id)}>{item.display_name}</a>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
