def page_of(scene):
    raise NotImplementedError
