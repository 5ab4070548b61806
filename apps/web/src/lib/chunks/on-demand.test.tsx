import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onDemand } from './on-demand';
import { EVENTUALLY } from '../../test-support/eventually';

afterEach(cleanup);

function Greeting({ name }: { name: string; onClose: () => void }) {
  return <p>Hello {name}</p>;
}

describe('a component loaded on demand', () => {
  it('loads its code on the first render, once, and draws it', async () => {
    const load = vi.fn(() => Promise.resolve(Greeting));
    const { Component } = onDemand(load);
    expect(load).not.toHaveBeenCalled();
    render(<Component name="谷圈" onClose={() => undefined} />);
    expect(await screen.findByText('Hello 谷圈')).toBeDefined();
    cleanup();
    render(<Component name="again" onClose={() => undefined} />);
    expect(screen.getByText('Hello again')).toBeDefined();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads ahead of the render when asked, and not twice', async () => {
    const load = vi.fn(() => Promise.resolve(Greeting));
    const { Component, preload } = onDemand(load);
    preload();
    preload();
    await act(async () => {
      await Promise.resolve();
    });
    render(<Component name="早" onClose={() => undefined} />);
    expect(await screen.findByText('Hello 早')).toBeDefined();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('draws nothing and tells the caller once when the code cannot be had', async () => {
    const onClose = vi.fn();
    const { Component } = onDemand(
      () => Promise.reject(new Error('chunk gone')),
      (props: { name: string; onClose: () => void }) => {
        props.onClose();
      },
    );
    const { container } = render(<Component name="x" onClose={onClose} />);
    await vi.waitFor(() => {
      expect(onClose).toHaveBeenCalledTimes(1);
    }, EVENTUALLY);
    expect(container.textContent).toBe('');
  });

  it('tries again on a later preload after a failed one', async () => {
    const load = vi
      .fn<() => Promise<typeof Greeting>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(Greeting);
    const { preload } = onDemand(load);
    preload();
    await vi.waitFor(() => {
      expect(load).toHaveBeenCalledTimes(1);
    }, EVENTUALLY);
    await act(async () => {
      await Promise.resolve();
    });
    preload();
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('a part the server draws, hydrated once its code is here', () => {
  it('draws at once, without a suspended frame, once loaded', async () => {
    const { Component, load } = onDemand(() => Promise.resolve(Greeting));
    await load();
    render(<Component name="即刻" onClose={() => undefined} />);
    expect(screen.getByText('Hello 即刻')).toBeDefined();
  });

  it('lets the caller wait for the code, and says when it cannot be had', async () => {
    const { load } = onDemand(() => Promise.reject(new Error('chunk gone')));
    await expect(load()).rejects.toThrow('chunk gone');
  });
});
