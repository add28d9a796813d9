def picture(scene):
    raise NotImplementedError
