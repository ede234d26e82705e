import { Component, type ReactNode } from 'react';

/**
 * Around a screen loaded on demand (React.lazy): when its file cannot be fetched (a dropped
 * connection, or a release that replaced the hashed file since the page was opened) the person gets
 * `failed` instead of a blank page; a reload fetches the current page and its files.
 */
export class ScreenBoundary extends Component<{ failed: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? this.props.failed : this.props.children;
  }
}
